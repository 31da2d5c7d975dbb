# The HTTP and stub service step libraries (StoryKitHTTP) used as a user would.
Feature: Calling HTTP services and stubbing them in the story

  Scenario: A stub answers as the story says, and the story checks what it received
    Given the orders service answers POST /orders with status 201 and:
      """json
      {"id": "o-7", "status": "open", "lines": [{"sku": "apple", "count": 3}]}
      """
    And the orders service answers GET /orders/o-7 with status 200 and:
      """
      {"id": "o-7", "status": "paid"}
      """
    And the base URL is {orders service}
    And the request header "Accept" is "application/json"
    When I send POST /orders with:
      """
      {"lines": [{"sku": "apple", "count": 3}]}
      """
    Then the response status is 201
    And the response header "Content-Type" contains "json"
    And the response body contains JSON:
      """
      {"status": "open"}
      """
    And the response's "lines[0].count" is 3
    And the response's "id" is stored as "order"
    When I send GET /orders/{order}
    Then the response body is JSON:
      """
      {"status": "paid", "id": "o-7"}
      """
    And the orders service received 1 POST /orders with JSON:
      """
      {"lines": [{"count": 3, "sku": "apple"}]}
      """
    And the orders service received 1 GET /orders/*
    And the orders service received nothing unexpected

  Scenario: Answers in order, then always; queries and bodies choose the answer
    Given the stock service answers once GET /stock/apple with status 503
    And the stock service answers GET /stock/apple with status 200 and:
      """
      {"count": 12}
      """
    And the stock service answers GET /search?q=pear with status 200 and:
      """
      pears
      """
    And the stock service answers POST /reserve whose body contains "apple" with status 409
    And the base URL is {stock service}
    When I send GET /stock/apple
    Then the response status is 503
    When I send GET /stock/apple
    Then the response's "count" is 12
    When I send GET /stock/apple
    Then the response status is 200
    When I send GET /search with the query:
      | q    | pear |
      | page | 2    |
    Then the response body is:
      """
      pears
      """
    When I send POST /reserve with:
      """
      {"sku": "apple"}
      """
    Then the response status is 409
    And the stock service received 3 GET /stock/apple
    And the stock service received nothing unexpected

  Scenario: A request no answer matches gets a 404 that names it
    Given the stub billing service is running
    And the base URL is {billing service}
    When I send DELETE /invoices/9
    Then the response status is 404
    And the response body contains "no answer for DELETE /invoices/9"

  Scenario: Commands the story runs reach the stub through an environment variable
    Given the weather service answers GET /today with status 200 and:
      """
      sunny
      """
    When I successfully run `curl -s $WEATHER_SERVICE_URL/today`
    Then stdout is:
      """
      sunny
      """
    And the weather service received 1 GET /today

  Scenario: A delayed answer
    Given the slow service answers GET /report with status 200 after 300 ms and:
      """
      done
      """
    And the base URL is {slow service}
    When I send GET /report
    Then the response body contains "done"
