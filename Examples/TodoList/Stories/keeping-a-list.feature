Feature: Keeping a to-do list
  A list lives in todo.json in the folder I run todo in.

  Scenario: Adding and listing things to do
    When I successfully run `todo add buy milk`
    And I successfully run `todo add call Ada`
    And I successfully run `todo list`
    Then stdout is:
      """
      1. [ ] buy milk
      2. [ ] call Ada
      """
    And the file "todo.json" contains "call Ada"

  Scenario: Ticking a thing off
    Given a file named "todo.json" with:
      """
      [{"done": false, "text": "water the plants"}]
      """
    When I successfully run `todo done 1`
    Then stdout is:
      """
      Done: water the plants
      """
    When I successfully run `todo list`
    Then stdout contains "1. [x] water the plants"

  Scenario: Ticking off a thing that is not on the list
    When I run `todo done 3`
    Then the command exits with status 1
    And stderr is:
      """
      todo: there is no item 3
      """

  Scenario: An empty list
    When I successfully run `todo list`
    Then stdout is:
      """
      Nothing to do.
      """
