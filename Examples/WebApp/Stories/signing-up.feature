Feature: Creating an account
  The form says what is wrong with each field before anything is sent.

  Background:
    Given I visit /
    And I click the link "Create an account"

  Scenario: Every problem is shown at once
    When I fill in "Email" with "ann.example.com"
    And I fill in "Password" with "short"
    And I click "Create account"
    Then I see "Tell us your name"
    And I see "That email address does not look right"
    And I see "Use at least 8 characters"
    And I see "Please accept the terms"
    And the "Email" field contains "ann.example.com"

  Scenario: A complete form is welcomed
    When I fill in the form with:
      | Name     | Ann               |
      | Email    | ann@example.com   |
      | Password | correct horse     |
    And I select "Team" from "Plan"
    And I check "I accept the terms"
    And I click "Create account"
    Then I see "Welcome aboard, Ann! You are on the Team plan."
    And I do not see "Please accept the terms"
    And I do not see the button "Create account"
