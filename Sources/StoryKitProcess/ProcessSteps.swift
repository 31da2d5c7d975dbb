import Foundation
import StepLibrarySupport
import StoryKit

#if canImport(Glibc)
    import Glibc
#endif

/// Steps that run command-line programs, as aruba does for Cucumber: each
/// story gets a fresh temporary directory to run them in, removed when the
/// story ends, with every process a command started.
///
/// ```swift
/// await StoryRun.main(steps: [ProcessSteps.self, MySteps.self])
/// ```
public final class ProcessSteps: StepLibrary {
    /// The story's directory, made when a step first needs it.
    private(set) lazy var directory: String = {
        var template = Array((NSTemporaryDirectory() + "storykit-process-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return made.map { String(cString: $0) } ?? NSTemporaryDirectory()
    }()
    private var isDirectoryMade = false
    /// The directory storyrun runs in: relative program paths start there.
    let packageDirectory = FileManager.default.currentDirectoryPath
    /// Variables the story set for its commands.
    var environment: [String: String] = [:]
    /// The time limit of each command, in seconds.
    var timeLimit: Double = 10
    /// The last command that finished.
    var last: CommandResult?
    /// The command started in the background, if any.
    var background: RunningCommand?
    /// Every command started, to stop when the story ends.
    private var started: [RunningCommand] = []

    public required init() {}

    /// The story's directory, made if needed.
    var workingDirectory: String {
        isDirectoryMade = true
        return directory
    }

    /// A path in the story's directory (an absolute path as is).
    func path(_ name: String) -> String {
        name.hasPrefix("/") ? name : workingDirectory + "/" + name
    }

    /// Starts a command in the story's directory.
    func start(_ commandLine: String, input: String?, keepsInputOpen: Bool) throws -> RunningCommand {
        // Shown with its values, for the log and messages only: the
        // command gets them after its line is split (CommandArguments).
        let expanded = Placeholders.expand(commandLine, in: store)
        var variables = ProcessInfo.processInfo.environment
        variables.merge(SharedEnvironment.variables(in: store)) { $1 }
        variables.merge(environment) { $1 }
        variables["PWD"] = workingDirectory
        let words = try CommandWords.pieces(commandLine, environment: variables) { Placeholders.value($0, in: store) }
        let arguments = CommandArguments(words: words)
        variables.merge(arguments.environment) { $1 }
        let executable = try CommandWords.resolve(
            arguments.arguments[0], searchPath: variables["PATH"], packageDirectory: packageDirectory)
        log("$ \(expanded)")
        let command = try RunningCommand(
            commandLine: expanded, executable: executable, arguments: arguments.arguments, directory: workingDirectory,
            environment: variables, input: input, keepsInputOpen: keepsInputOpen)
        started.append(command)
        return command
    }

    /// Runs a command to its end or its time limit and keeps its result.
    func run(_ commandLine: String, input: String?, timeLimit: Double? = nil) async throws {
        let limit = timeLimit ?? self.timeLimit
        let command = try start(commandLine, input: input, keepsInputOpen: false)
        // Until the command ends, its time limit, or the step's (the task
        // is cancelled past --step-timeout: the command is stopped then,
        // and the step ends with it instead of running on).
        var termination = await command.wait(timeout: limit, untilCancelled: true)
        let timedOut = termination == nil
        if timedOut { command.signalGroup(SIGKILL) }
        termination = await command.wait(timeout: 10)
        last = await finish(command, termination: termination ?? .signalled(SIGKILL), timedOut: timedOut, limit: limit)
        if timedOut && Task.isCancelled { throw CancellationError() }
    }

    /// Collects a command's output once it ended, stops what it left
    /// running in its process group, and writes it all to the report.
    func finish(_ command: RunningCommand, termination: Termination, timedOut: Bool, limit: Double) async -> CommandResult {
        // Children that keep the pipes open get a moment, then are stopped.
        if await !command.waitForOutput(timeout: 0.5) || command.groupIsAlive {
            if command.groupIsAlive {
                log("`\(command.commandLine)` left processes running in its process group; they were stopped")
            }
            command.signalGroup(SIGKILL)
            _ = await command.waitForOutput(timeout: 2)
        }
        let result = CommandResult(
            commandLine: command.commandLine, stdout: command.stdout.text, stderr: command.stderr.text,
            termination: termination, timedOut: timedOut, timeLimit: limit,
            seconds: Date().timeIntervalSince(command.started))
        for (name, collector) in [("stdout", command.stdout), ("stderr", command.stderr)] where collector.byteCount > 0 {
            let text = name == "stdout" ? result.stdout : result.stderr
            let shown = text.utf8.count > 65_536 ? String(decoding: text.utf8.prefix(65_536), as: UTF8.self) : text
            let note = collector.byteCount > shown.utf8.count ? "\n… (\(collector.byteCount) bytes in all)" : ""
            attach(shown + note, mediaType: "text/plain", name: name)
        }
        // Stopped at the step's limit (--step-timeout), not its own.
        let why = Task.isCancelled ? "the step ran out of time; stopped: " : "did not finish within \(CommandResult.format(limit)) s; stopped: "
        log((timedOut ? why : "") + "\(termination) after \(String(format: "%.2f", result.seconds)) s")
        return result
    }

    /// Stops every command of the story with its process group and removes
    /// the story's directory.
    func tearDown() async {
        for command in started { await command.stop(grace: 0.5) }
        started = []
        background = nil
        if isDirectoryMade { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The last finished command, or a failure saying none ran.
    func lastResult(file: String = #filePath, line: Int = #line) throws -> CommandResult {
        guard let last else { try fail("no command has finished in this story yet", file: file, line: line) }
        return last
    }

    /// The command started in the background, or a failure saying none was.
    func backgroundCommand() throws -> RunningCommand {
        guard let background else { try fail("no command was started in the background in this story") }
        return background
    }
}
