Feature: Hooks and attachments

  @failing-before
  Scenario: A failing before hook
    When I buy 1 "apple"

  @failing-after
  Scenario: A failing after hook
    When I buy 1 "apple"
