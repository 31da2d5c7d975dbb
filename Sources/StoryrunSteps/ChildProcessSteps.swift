import Foundation
import StoryKit

/// Fixture steps that start a program and stop it from an after hook, as a
/// user's server stories do: the program must get a plain signal mask.
final class ChildProcessSteps: StepDefinitions {
    /// A program a step started, for an after hook to stop.
    var child: Process?

    required init() {}

    static func define(_ step: StepMap<ChildProcessSteps>) {
        step("^the step starts `sleep 60` and writes the signals it blocks to \"(.*)\"$") { (steps: ChildProcessSteps, path: String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["60"]
            try process.run()
            steps.child = process
            let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? "SigBlk: unknown"
            try String(line).write(toFile: path, atomically: true, encoding: .utf8)
        }
        step.after(tags: "@stops-its-child") { steps in
            steps.child?.terminate()
            steps.child?.waitUntilExit()
        }
    }
}
