Feature: Hooks and attachments

  @failing-before
  Scenario: A failing before hook
    When I buy 1 "apple"

  @failing-after
  Scenario: A failing after hook
    When I buy 1 "apple"

  @attach-after
  Scenario: Embeddings and output
    When I buy 2 "pear"
    Then the receipt is attached
    And I log "paid in full"
