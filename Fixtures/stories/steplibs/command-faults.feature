# Commands that misbehave: each story fails with a clear message, the run
# goes on, and nothing the commands started is left running.
Feature: Commands that misbehave

  Scenario: A command exits with a status other than 0
    When I successfully run `sh -c 'echo "disk full" >&2; exit 4'`

  Scenario: A command crashes
    When I run `sh -c 'kill -SEGV $$'`
    Then the command succeeds

  Scenario: A command hangs past its time limit
    Given the time limit for commands is 0.5 seconds
    When I successfully run `sh -c 'sleep 299.25'`

  Scenario: A command prints megabytes and not what is expected
    When I run `sh -c 'head -c 3000000 /dev/zero | tr "\0" "a"; echo; echo last line'`
    Then stdout contains "the answer"

  Scenario: A command leaves a child behind
    When I successfully run `sh -c 'sleep 299.5 & echo started'`
    Then stdout is:
      """
      started
      """

  Scenario: Output differs from the doc string
    When I run `printf 'one\ntwo\nthree\n'`
    Then stdout is:
      """
      one
      2
      three
      """

  Scenario: A background program still running when the story fails
    When I start `sh -c 'sleep 299.75'` in the background
    Then the program prints "never" within 0.3 seconds

  Scenario: The run goes on
    When I successfully run `true`
