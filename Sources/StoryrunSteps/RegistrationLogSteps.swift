import Foundation
import StoryKit

/// A fixture with no steps, for tests of what happens while step classes
/// register: each process that registers them adds its pid to the file
/// `STORYRUN_DEFINE_LOG` names (a forked worker has its parent's
/// definitions and registers none), and registering takes
/// `STORYRUN_DEFINE_DELAY_MS` milliseconds more.
final class RegistrationLogSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<RegistrationLogSteps>) {
        if let log = getenv("STORYRUN_DEFINE_LOG"), let file = fopen(log, "a") {
            fputs("\(getpid())\n", file)
            fclose(file)
        }
        if let delay = getenv("STORYRUN_DEFINE_DELAY_MS").flatMap({ UInt32(String(cString: $0)) }) {
            usleep(delay * 1000)
        }
    }
}
