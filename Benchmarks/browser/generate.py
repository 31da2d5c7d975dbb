"""Writes the browser bench's stories: 50 UI scenarios from four templates
(sign in, form validation, a list, click-then-read) and the round-trip
micro-benchmark, as Gherkin that storyrun (BrowserSteps) and behave (the
Selenium steps beside this file) both run unchanged.

    python3 generate.py OUT   (OUT/suite/*.feature, OUT/roundtrip/*.feature, each with steps/)
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sign_in(i):
    if i % 2 == 0:
        return f"""  Scenario: Customer {i} signs in
    When I visit /
    And I fill in "Email" with "customer{i}@example.com"
    And I fill in "Password" with "correct horse"
    And I click "Sign in"
    Then I am on /todos.html
    And I see "You have 2 to-dos"
"""
    return f"""  Scenario: Customer {i} types a wrong password
    When I visit /
    And I fill in "Email" with "customer{i}@example.com"
    And I fill in "Password" with "wrong {i}"
    And I click "Sign in"
    Then I see "Wrong email or password"
"""


def validation(i):
    if i % 2 == 0:
        return f"""  Scenario: Form {i} shows every problem at once
    When I visit /signup.html
    And I fill in "Email" with "person{i}.example.com"
    And I fill in "Password" with "short"
    And I click "Create account"
    Then I see "Tell us your name"
    And I see "That email address does not look right"
    And I see "Use at least 8 characters"
    And the "Email" field contains "person{i}.example.com"
"""
    return f"""  Scenario: Form {i} is complete
    When I visit /signup.html
    And I fill in "Name" with "Person {i}"
    And I fill in "Email" with "person{i}@example.com"
    And I fill in "Password" with "correct horse"
    And I select "Team" from "Plan"
    And I check "I accept the terms"
    And I click "Create account"
    Then I see "Welcome aboard, Person {i}! You are on the Team plan."
"""


def a_list(i):
    return f"""  Scenario: List {i} loads and takes a new to-do
    When I visit /todos.html
    Then I see 2 list items within "To-dos"
    And I see "Call Bob" within "To-dos"
    When I fill in "New to-do" with "Task {i}"
    And I click "Add"
    Then I see "Task {i}" within "To-dos"
    And the "New to-do" field is empty
"""


def click_then_read(i, clicks):
    lines = [f"  Scenario: Counter {i} counts {clicks} clicks", "    When I visit /counter.html"]
    for n in range(1, clicks + 1):
        lines += ['    And I click "Add one"', f'    Then I see "Count: {n}"']
    return "\n".join(lines) + "\n"


TEMPLATES = [sign_in, validation, a_list, lambda i: click_then_read(i, 3 + i % 3)]


def write(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)
    steps = os.path.join(folder, "steps")
    os.makedirs(steps, exist_ok=True)
    shutil.copy(os.path.join(HERE, "steps", "selenium_steps.py"), steps)
    shutil.copy(os.path.join(HERE, "environment.py"), folder)


def main(out, stories=50, clicks=50):
    suite, roundtrip = os.path.join(out, "suite"), os.path.join(out, "roundtrip")
    for folder in (suite, roundtrip):
        shutil.rmtree(folder, ignore_errors=True)
    for i in range(stories):
        template = TEMPLATES[i % len(TEMPLATES)]
        write(suite, f"story{i:02d}.feature", f"Feature: UI story {i}\n\n" + template(i))
    write(roundtrip, "roundtrip.feature", "Feature: Click then read\n\n" + click_then_read(0, clicks))


if __name__ == "__main__":
    main(sys.argv[1])
