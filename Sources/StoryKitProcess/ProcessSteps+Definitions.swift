import Foundation
import StepLibrarySupport
import StoryKit

#if canImport(Glibc)
    import Glibc
#endif

extension ProcessSteps {
    /// Registers the steps; see the README's "Command-line programs" section.
    public static func define(_ step: StepMap<ProcessSteps>) {
        step.after { steps in await steps.tearDown() }
        defineSetup(step)
        defineRunning(step)
        defineInteraction(step)
        defineChecks(step)
        defineFileChecks(step)
    }

    private static func defineSetup(_ step: StepMap<ProcessSteps>) {
        step(#"^the environment variable (\w+) is set to "(.*)"$"#) { (steps: ProcessSteps, name: String, value: String) in
            steps.environment[name] = Placeholders.expand(value, in: steps.store)
        }
        step(#"^the time limit for commands is (\d+(?:\.\d+)?) seconds?$"#) { (steps: ProcessSteps, seconds: Double) in
            steps.timeLimit = seconds
        }
        step(#"^a file named "([^"]+)" with:$"#) { (steps: ProcessSteps, name: String, content: DocString) in
            let path = steps.path(name)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(content.content.utf8).write(to: URL(fileURLWithPath: path))
        }
        step(#"^an empty file named "([^"]+)"$"#) { (steps: ProcessSteps, name: String) in
            try Data().write(to: URL(fileURLWithPath: steps.path(name)))
        }
        step(#"^a folder named "([^"]+)"$"#) { (steps: ProcessSteps, name: String) in
            try FileManager.default.createDirectory(atPath: steps.path(name), withIntermediateDirectories: true)
        }
    }

    private static func defineRunning(_ step: StepMap<ProcessSteps>) {
        step(#"^I (successfully )?run `(.+)`$"#) { (steps: ProcessSteps, successfully: String?, command: String) in
            try await steps.run(command, input: nil)
            if successfully != nil { try steps.expectSuccess() }
        }
        step(#"^I (successfully )?run `(.+)` with input:$"#) {
            (steps: ProcessSteps, successfully: String?, command: String, input: DocString) in
            try await steps.run(command, input: input.content + "\n")
            if successfully != nil { try steps.expectSuccess() }
        }
        step(#"^I (successfully )?run `(.+)` with a time limit of (\d+(?:\.\d+)?) seconds?$"#) {
            (steps: ProcessSteps, successfully: String?, command: String, seconds: Double) in
            try await steps.run(command, input: nil, timeLimit: seconds)
            if successfully != nil { try steps.expectSuccess() }
        }
    }

    private static func defineInteraction(_ step: StepMap<ProcessSteps>) {
        step("^I start `(.+)` in the background$") { (steps: ProcessSteps, command: String) in
            steps.background = try steps.start(command, input: nil, keepsInputOpen: true)
        }
        step(#"^I type "(.*)"$"#) { (steps: ProcessSteps, text: String) in
            let command = try steps.backgroundCommand()
            log("typed: \(text)")
            try command.type(Placeholders.expand(text, in: steps.store) + "\n")
        }
        step("^I close the program's input$") { steps in
            try steps.backgroundCommand().closeInput()
        }
        step(#"^the program (prints|has printed) "(.*)" within (\d+(?:\.\d+)?) seconds?$"#) {
            (steps: ProcessSteps, _: String, text: String, seconds: Double) in
            let command = try steps.backgroundCommand()
            try await steps.waitForOutput(of: command, seconds: seconds, "\"\(text)\"") { $0.contains(text) }
        }
        step(#"^the program's output matches /(.*)/ within (\d+(?:\.\d+)?) seconds?$"#) {
            (steps: ProcessSteps, pattern: String, seconds: Double) in
            let command = try steps.backgroundCommand()
            let regex = try OutputCheck.regex(pattern)
            try await steps.waitForOutput(of: command, seconds: seconds, "/\(pattern)/") { OutputCheck.matches(regex, $0) }
        }
        // A server started on a port of its own choosing hands its address
        // on: `the base URL is {server}` (HTTPSteps), `{server}` anywhere.
        step(#"^I store the address the program prints as "([^"]+)" within (\d+(?:\.\d+)?) seconds?$"#) {
            (steps: ProcessSteps, name: String, seconds: Double) in
            let command = try steps.backgroundCommand()
            try await steps.waitForOutput(of: command, seconds: seconds, "an address (http://HOST:PORT)") { ProgramAddress.first(in: $0) != nil }
            let address = ProgramAddress.first(in: command.stdout.text + command.stderr.text)!
            log("\(name) = \(address)")
            steps.store.set(address, forKey: name)
        }
        step("^I stop the program$") { steps in
            let command = try steps.backgroundCommand()
            let termination = await command.stop(grace: 3)
            steps.last = await steps.finish(command, termination: termination, timedOut: false, limit: steps.timeLimit)
            steps.background = nil
        }
    }

    /// Waits until the output of a background command satisfies a test, and
    /// fails with what it printed when it does not in time or it ends first.
    func waitForOutput(
        of command: RunningCommand, seconds: Double, _ wanted: String, _ test: (String) -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let output = command.stdout.text + command.stderr.text
            if test(output) { return }
            if let termination = command.termination, command.stdout.isClosed, command.stderr.isClosed {
                try fail("`\(command.commandLine)` \(termination) without printing \(wanted); it printed:\n\(CommandResult.tail(output))")
            }
            if Date() >= deadline {
                try fail("`\(command.commandLine)` did not print \(wanted) within \(CommandResult.format(seconds)) s; it printed:\n\(CommandResult.tail(output))")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Fails unless the last command exited with status 0.
    func expectSuccess() throws {
        let result = try lastResult()
        if result.termination != .exited(0) || result.timedOut {
            try fail(result.summary + "\n(expected it to exit with status 0)")
        }
    }
}
