import Foundation
import StoryKit

/// Fixture steps that misbehave on purpose: they end the process, crash it,
/// hang, leave processes behind and print, so the stories can show that a
/// supervised run survives all of it.
final class FaultSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<FaultSteps>) {
        step.beforeRun {
            switch ProcessInfo.processInfo.environment["STORYRUN_FAULT_BEFORE_RUN"] {
            case "crash": fatalError("a before-run hook crashed on purpose")
            case "throw": throw HookSabotage()
            default: break
            }
        }
        step.before(tags: "@hanging-hook") { _ in
            usleep(30_000_000)  // blocks the thread: ignores cancellation
        }
        step.after(tags: "@crashing-hook") { _ in
            fatalError("an after hook crashed on purpose")
        }
        step("^the step calls exit\\((\\d+)\\)$") { (_: FaultSteps, code: Int32) in
            exit(code)
        }
        step("^the step raises (SIGSEGV|SIGTERM|SIGKILL)$") { (_: FaultSteps, name: String) in
            raise(["SIGSEGV": SIGSEGV, "SIGTERM": SIGTERM, "SIGKILL": SIGKILL][name]!)
        }
        step("^the step overflows the stack$") { _ in
            func deeper(_ depth: Int) -> Int { depth == Int.max ? 0 : deeper(depth + 1) + 1 }
            _ = deeper(0)
        }
        step("^the step starts a process that outlives it$") { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["299.5"]
            try process.run()
        }
        step("^the step prints \"(.*)\" and \"(.*)\" to its error output$") { (_: FaultSteps, text: String, error: String) in
            print(text)
            FileHandle.standardError.write(Data((error + "\n").utf8))
        }
        step("^the step logs \"(.*)\"$") { (_: FaultSteps, text: String) in
            log(text)
        }
        step("^a step that passes$") { _ in }
    }
}
