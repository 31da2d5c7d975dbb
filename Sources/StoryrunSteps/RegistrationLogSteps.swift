import Foundation
import StoryKit

/// A fixture with no steps: each process that registers the step classes
/// adds its pid to the file `STORYRUN_DEFINE_LOG` names, so a test can count
/// the processes that registered (a forked worker has its parent's
/// definitions and registers none).
final class RegistrationLogSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<RegistrationLogSteps>) {
        guard let log = getenv("STORYRUN_DEFINE_LOG"), let file = fopen(log, "a") else { return }
        fputs("\(getpid())\n", file)
        fclose(file)
    }
}
