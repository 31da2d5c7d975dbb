@shop
Feature: Basket
  Customers fill baskets.

  Background:
    Given an empty basket

  Scenario: Adding apples
    When I add 3 apples to the basket
    Then the basket holds 3 apples

  Scenario Outline: Adding <count> <item>
    When I add <count> <item> to the basket
    Then the basket holds <count> <item>

    @fruit
    Examples:
      | count | item  |
      | 2     | pears |
      | 5     | plums |

  Scenario: Stocking from a table
    When the basket is stocked with:
      | item   | count |
      | apples | 2     |
      | pears  | 3     |
    Then the basket holds 2 apples
    And the basket holds 3 pears

  Scenario: A note for the driver
    When the customer writes:
      """
      Please deliver after six.
      """
    Then the note says "Please deliver after six."
