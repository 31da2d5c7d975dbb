Feature: Broken
  Scenario: A table that lost a cell
    Given an empty basket
      | a | b |
      | c |
