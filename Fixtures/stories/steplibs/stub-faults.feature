# A stub service that receives what the story did not expect.
Feature: Stub services that receive the unexpected

  Scenario: A request no answer matches
    Given the payment service answers POST /charges with status 201
    And the base URL is {payment service}
    When I send POST /refunds with:
      """
      {"amount": 5}
      """
    Then the payment service received nothing unexpected

  Scenario: A request with other JSON
    Given the payment service answers POST /charges with status 201
    And the base URL is {payment service}
    When I send POST /charges with:
      """
      {"amount": 7}
      """
    Then the payment service received 1 POST /charges with JSON:
      """
      {"amount": 5}
      """

  Scenario: A JSON body other than expected
    Given the payment service answers GET /charges/1 with status 200 and:
      """
      {"id": 1, "amount": 7}
      """
    And the base URL is {payment service}
    When I send GET /charges/1
    Then the response body is JSON:
      """
      {"id": 1, "amount": 5}
      """
