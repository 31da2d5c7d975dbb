@shop
Feature: Shop
  Customers buy from the price list.
  Prices are in euros.

  Background:
    Given the price list
      | item  | price |
      | apple | 1     |
      | pear  | 2     |

  @smoke
  Scenario: Buying an apple
    The simplest purchase.
    When I buy 2 "apple"
    Then I pay 2 euros

  Scenario: A receipt
    When I buy 1 "pear"
    Then the receipt reads
      """text/plain
      1 pear
      total 2
      """

  @outline
  Scenario Outline: Buying <count> items
    When I buy <count> "apple"
    Then I pay <total> euros

    @small
    Examples: Few
      | count | total |
      | 1     | 1     |
      | 3     | 3     |

    Examples: Many
      | count | total |
      | 10    | 10    |

  Scenario Outline: Same name for every row
    When I buy <count> "pear"

    Examples:
      | count |
      | 1     |
      | 2     |

  Scenario: A wrong total fails
    When I buy 1 "apple"
    Then I pay 5 euros
    And I leave the shop
