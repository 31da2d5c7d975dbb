# The command-line step library (StoryKitProcess) used as a user would.
Feature: Running command-line programs from a story

  Scenario: A command's output, status and files
    Given a file named "notes/today.txt" with:
      """
      buy milk
      call Ada
      """
    When I successfully run `sort -r notes/today.txt`
    Then stdout is:
      """
      call Ada
      buy milk
      """
    And stderr is empty
    And the output contains "Ada"
    And the output does not contain "Bob"
    And stdout matches /^call \w+$/
    And the file "notes/today.txt" exists
    And the folder "notes" exists
    And the file "missing.txt" does not exist

  Scenario: Input, environment variables and a failing status
    Given the environment variable GREETING is set to "hello"
    When I run `sh -c 'read name; echo "$GREETING, $name"; echo oops >&2; exit 3'` with input:
      """
      Ada
      """
    Then the command exits with status 3
    And the command fails
    And stdout is:
      """
      hello, Ada
      """
    And stderr contains "oops"

  Scenario: Commands write files the story reads
    When I successfully run `sh -c 'printf "one\ntwo\n" > out.txt; mkdir -p made/here'`
    Then the file "out.txt" is:
      """
      one
      two
      """
    And the file "out.txt" contains "two"
    And the folder "made/here" exists

  Scenario: An interactive program
    When I start `sh -c 'echo ready; while read line; do echo "got $line"; done; echo bye'` in the background
    Then the program prints "ready" within 5 seconds
    When I type "ping"
    Then the program's output matches /got p.ng/ within 5 seconds
    When I close the program's input
    Then the program prints "bye" within 5 seconds
    When I stop the program
    Then the command succeeds

  Scenario: A server on a port of its own hands its address to the HTTP steps
    When I start `python3 -u -m http.server 0 --bind 127.0.0.1` in the background
    And I store the address the program prints as "server" within 10 seconds
    And the base URL is {server}
    And I send GET /
    Then the response status is 200
    When I stop the program
    Then the command is stopped by SIGTERM

  Scenario: A program that does not end is stopped
    When I start `sleep 300` in the background
    And I stop the program
    Then the command is stopped by SIGTERM

  Scenario: A time limit stops a command that hangs
    When I run `sleep 30` with a time limit of 0.5 seconds
    Then the command runs out of time

  Scenario: A command that prints megabytes
    When I successfully run `head -c 5000000 /dev/zero`
    Then stdout has 5000000 bytes
