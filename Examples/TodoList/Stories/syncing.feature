Feature: Syncing the list to the server
  todo sync sends the list to the server named by TODO_SERVICE_URL.

  Scenario: The server keeps the list
    Given the todo service answers POST /lists with status 201 and:
      """
      {"id": "list-42"}
      """
    And a file named "todo.json" with:
      """
      [{"done": true, "text": "buy milk"}, {"done": false, "text": "call Ada"}]
      """
    When I successfully run `todo sync`
    Then stdout is:
      """
      Synced 2 items as list list-42.
      """
    And the todo service received 1 POST /lists with JSON:
      """
      {"items": [{"text": "buy milk", "done": true}, {"text": "call Ada", "done": false}]}
      """
    And the todo service received nothing unexpected

  Scenario: The server is down for maintenance
    Given the todo service answers POST /lists with status 503
    When I run `todo sync`
    Then the command exits with status 3
    And stderr contains "the server answered 503"

  Scenario: A slow server is waited for
    Given the todo service answers POST /lists with status 201 after 500 ms and:
      """
      {"id": "list-7"}
      """
    When I successfully run `todo sync`
    Then stdout contains "as list list-7"
