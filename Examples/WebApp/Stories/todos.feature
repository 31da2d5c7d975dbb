Feature: The to-do list
  The list comes from the API, which each story answers itself.

  Scenario: The list shows what the API has
    Given the API answers GET /api/todos with status 200 and:
      ```json
      [{"title": "Buy milk"}, {"title": "Call Bob"}, {"title": "Water the plants"}]
      ```
    When I visit /todos.html
    Then I see 3 list items within "To-dos"
    And I see "Call Bob" within "To-dos"
    And I see "You have 3 to-dos"

  Scenario: Adding a to-do sends it to the API
    Given the API answers GET /api/todos with status 200 and:
      ```json
      []
      ```
    And the API answers POST /api/todos with status 201
    When I visit /todos.html
    Then I see "Nothing to do"
    When I fill in "New to-do" with "Book the dentist"
    And I click "Add"
    Then I see "Book the dentist" within "To-dos"
    And the "New to-do" field is empty
    And the page requested POST /api/todos with JSON:
      ```json
      {"title": "Book the dentist"}
      ```
    And the page made no unexpected requests

  Scenario: The API is down
    Given the API answers GET /api/todos with status 503
    When I visit /todos.html
    Then I see "Your to-dos could not be loaded"
    And I see no list items
