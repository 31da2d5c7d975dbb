Feature: Signing in
  A customer signs in with the email and password of their account.

  Scenario: The right password opens the to-do list
    Given the API answers POST /api/session with status 200
    And the API answers GET /api/todos with status 200 and:
      ```json
      [{"title": "Buy milk"}]
      ```
    When I visit /
    And I fill in "Email" with "ann@example.com"
    And I fill in "Password" with "correct horse"
    And I click "Sign in"
    Then I am on /todos.html
    And I see "You have 1 to-do"
    And the page requested POST /api/session with JSON:
      ```json
      {"email": "ann@example.com", "password": "correct horse"}
      ```

  Scenario: A wrong password is refused
    Given the API answers POST /api/session with status 401
    When I visit /
    And I fill in "Email" with "ann@example.com"
    And I fill in "Password" with "wrong"
    And I press the Enter key
    Then I see "Wrong email or password"
    And I am on /

  Scenario: Nothing typed
    When I visit /
    And I click the button "Sign in"
    Then I see "Enter your email and password"
