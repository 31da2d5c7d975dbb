import StoryKit

/// Fixture steps whose failure message holds markup, quotes and a control
/// character, so reports show they escape (or drop) every one of them.
final class PrinterSteps: StepDefinitions {
    required init() {}

    static func define(_ step: StepMap<PrinterSteps>) {
        step("^the printer prints \"(.*)\"$") { (steps: PrinterSteps, text: String) in
            try fail("the printer jammed\u{07} on \(text) ]]> </pre> 100%, 'done'")
        }
    }
}
