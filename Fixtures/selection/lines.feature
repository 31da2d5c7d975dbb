@shop
Feature: Choosing stories by line

  Background:
    Given an empty basket

  Scenario: Adding apples
    When I add 3 apples to the basket
    Then the basket holds 3 apples

  Scenario Outline: Adding <count> <item>
    When I add <count> <item> to the basket
    Then the basket holds <held> <item>

    Examples: Right
      | count | item  | held |
      | 2     | pears | 2    |
      | 5     | plums | 5    |

    Examples: Wrong
      | count | item  | held |
      | 1     | figs  | 2    |

  Rule: Tables

    Scenario: Stocking from a table
      When the basket is stocked with:
        | item   | count |
        | apples | 2     |
      Then the basket holds 2 apples

    Scenario: Stocking pears
      When I add 1 pears to the basket
      Then the basket holds 1 pears
