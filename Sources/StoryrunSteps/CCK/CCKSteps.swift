import Foundation
import StoryKit
import Synchronization

/// The Swift twins of the Cucumber Compatibility Kit's TypeScript step
/// definitions (`../shared/conformance/compatibility-kit/samples/NAME/NAME.ts`),
/// one class per sample, registered in the same order as the sample's
/// definitions and hooks. `Fixtures/cck/cck.py` runs each sample with
/// `STORYRUN_FIXTURE_STEPS=cck:NAME` and compares the Messages stream.
public enum CCKSteps {
    /// The step classes of a sample; none for a sample with no twin (its
    /// steps are then undefined, and `Fixtures/cck/known-gaps.txt` says why).
    public static func steps(for sample: String) -> [any StepDefinitions.Type] {
        switch sample {
        case "minimal": [MinimalSteps.self]
        case "backgrounds", "rules-backgrounds": [OrderSteps.self]
        case "multiple-features", "multiple-features-reversed": [OrderOnlySteps.self]
        case "cdata": [CDataSteps.self]
        case "data-tables": [DataTableSteps.self]
        case "doc-strings": [DocStringSteps.self]
        case "examples-tables": [CucumberCountSteps.self]
        case "examples-tables-undefined", "examples-tables-undefined-multiple": [CucumberEatingSteps.self]
        case "global-hooks": [GlobalHookSteps.self]
        case "global-hooks-afterall-error": [AfterAllErrorSteps.self]
        case "global-hooks-beforeall-error": [BeforeAllErrorSteps.self]
        case "global-hooks-attachments": [GlobalHookAttachmentSteps.self]
        case "hooks": [HookSteps.self]
        case "hooks-attachment": [HookAttachmentSteps.self]
        case "hooks-conditional": [ConditionalHookSteps.self]
        case "hooks-undefined": [UndefinedHookSteps.self]
        case "parameter-types": [FlightSteps.self]
        case "regular-expression": [VegetableSteps.self]
        case "retry": [RetrySteps.self]
        case "retry-ambiguous": [AmbiguousRetrySteps.self]
        case "ambiguous": [AmbiguousSteps.self]
        case "rules": [ChocolateSteps.self]
        case "stack-traces": [StackTraceSteps.self]
        case "undefined", "undefined-multiple": [UndefinedSteps.self]
        case "unused-steps": [UnusedSteps.self]
        case "unknown-parameter-type": [UnknownParameterTypeSteps.self]
        case "attachments": [AttachmentSteps.self]
        case "examples-tables-attachment": [ImageAttachmentSteps.self]
        case "test-run-exception": [TestRunExceptionSteps.self]
        case "pending": [PendingSteps.self]
        case "hooks-named": [NamedHookSteps.self]
        case "pending-exception": [PendingExceptionSteps.self]
        case "retry-pending": [RetryPendingSteps.self]
        case "skipped": [SkippedSteps.self]
        case "skipped-exception": [SkippedExceptionSteps.self]
        case "skipped-failing-hook": [SkippedFailingHookSteps.self]
        case "hooks-skipped": [HooksSkippedSteps.self]
        case "all-statuses": [AllStatusesSteps.self]
        case "failedish-combinations": [FailedishSteps.self]
        case "markdown": [MarkdownSteps.self]
        default: []
        }
    }
}

/// A failure with only the message, as the kit's `throw new Error(…)`.
/// (A located error with no place: its message is the whole description.)
struct KitError: LocatedError, CustomStringConvertible {
    var description: String
    var location: SourceLocation? { nil }
    init(_ message: String) { description = message }
}

/// A file of the sample, read from the kit's folder (the runner's current folder).
func sampleFile(_ sample: String, _ name: String) -> Data {
    FileManager.default.contents(atPath: "samples/\(sample)/\(name)") ?? Data()
}

final class MinimalSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<MinimalSteps>) {
        step.expression("I have {int} cukes in my belly") { (_: MinimalSteps, _: Int) in }
    }
}

final class OrderSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<OrderSteps>) {
        step.expression("an order for {string}") { (_: OrderSteps, _: String) in }
        step.expression("an action") { _ in }
        step.expression("an outcome") { _ in }
    }
}

final class OrderOnlySteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<OrderOnlySteps>) {
        step.expression("an order for {string}") { (_: OrderOnlySteps, _: String) in }
    }
}

final class CDataSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<CDataSteps>) {
        step.expression("I have {int} <![CDATA[cukes]]> in my belly") { (_: CDataSteps, _: Int) in }
    }
}

final class DataTableSteps: StepDefinitions {
    var transposed: [[String]] = []
    required init() {}
    static func define(_ step: StepMap<DataTableSteps>) {
        step.expression("the following table is transposed:") { (steps: DataTableSteps, table: DataTable) in
            let rows = table.rows
            steps.transposed = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column] } }
        }
        step.expression("it should be:") { (steps: DataTableSteps, expected: DataTable) in
            try expectEqual(steps.transposed, expected.rows)
        }
    }
}

final class MarkdownSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<MarkdownSteps>) {
        step.expression("some TypeScript code:") { (_: MarkdownSteps, _: DocString) in }
        step.expression("some classic Gherkin:") { (_: MarkdownSteps, _: DocString) in }
        step.expression("we use a data table and attach something and then {word}") { (_: MarkdownSteps, word: String, _: DataTable) in
            log("We are logging some plain text (\(word))")
            if word == "fail" { throw KitError("You asked me to fail") }
        }
        step.expression("this might or might not run") { _ in }
    }
}

final class DocStringSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<DocStringSteps>) {
        step.expression("a doc string:") { (_: DocStringSteps, _: DocString) in }
    }
}

final class CucumberCountSteps: StepDefinitions {
    var count = 0
    var friends = 0
    required init() {}
    static func define(_ step: StepMap<CucumberCountSteps>) {
        step.expression("there are {int} cucumbers") { (steps: CucumberCountSteps, count: Int) in steps.count = count }
        step.expression("there are {int} friends") { (steps: CucumberCountSteps, friends: Int) in steps.friends = friends }
        step.expression("I eat {int} cucumbers") { (steps: CucumberCountSteps, eaten: Int) in steps.count -= eaten }
        step.expression("I should have {int} cucumbers") { (steps: CucumberCountSteps, expected: Int) in
            if steps.count != expected { throw KitError("Expected values to be strictly equal:\n\n\(steps.count) !== \(expected)\n") }
        }
        step.expression("each person can eat {int} cucumbers") { (steps: CucumberCountSteps, share: Int) in
            let actual = steps.count / (1 + steps.friends)
            if actual != share { throw KitError("Expected values to be strictly equal:\n\n\(actual) !== \(share)\n") }
        }
    }
}

final class CucumberEatingSteps: StepDefinitions {
    var count = 0
    required init() {}
    static func define(_ step: StepMap<CucumberEatingSteps>) {
        step.expression("there are {int} cucumbers") { (steps: CucumberEatingSteps, count: Int) in steps.count = count }
        step.expression("I eat {int} cucumbers") { (steps: CucumberEatingSteps, eaten: Int) in steps.count -= eaten }
        step.expression("I should have {int} cucumbers") { (steps: CucumberEatingSteps, expected: Int) in
            if steps.count != expected { throw KitError("Expected values to be strictly equal:\n\n\(steps.count) !== \(expected)\n") }
        }
    }
}

final class GlobalHookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<GlobalHookSteps>) {
        step.beforeRun {}
        step.beforeRun {}
        step.expression("a step passes") { _ in }
        step.expression("a step fails") { _ in throw KitError("Exception in step") }
        step.afterRun {}
        step.afterRun {}
    }
}

final class AfterAllErrorSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<AfterAllErrorSteps>) {
        step.beforeRun {}
        step.beforeRun {}
        step.expression("a step passes") { _ in }
        step.afterRun {}
        step.afterRun { throw KitError("AfterAll hook went wrong") }
        step.afterRun {}
    }
}

final class BeforeAllErrorSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<BeforeAllErrorSteps>) {
        step.beforeRun {}
        step.beforeRun { throw KitError("BeforeAll hook went wrong") }
        step.beforeRun {}
        step.expression("a step passes") { _ in }
        step.afterRun {}
        step.afterRun {}
    }
}

final class GlobalHookAttachmentSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<GlobalHookAttachmentSteps>) {
        step.beforeRun { attach("Attachment from BeforeAll hook", mediaType: "text/plain") }
        step.expression("a step passes") { _ in }
        step.afterRun { attach("Attachment from AfterAll hook", mediaType: "text/plain") }
    }
}

final class HookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<HookSteps>) {
        step.before { _ in }
        step.expression("a step passes") { _ in }
        step.expression("a step fails") { _ in throw KitError("Exception in step") }
        step.after { _ in }
    }
}

final class HookAttachmentSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<HookAttachmentSteps>) {
        step.before { _ in attach(sampleFile("hooks-attachment", "cucumber.svg"), mediaType: "image/svg+xml") }
        step.expression("a step passes") { _ in }
        step.after { _ in attach(sampleFile("hooks-attachment", "cucumber.svg"), mediaType: "image/svg+xml") }
    }
}

final class ConditionalHookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<ConditionalHookSteps>) {
        step.before(tags: "@passing-hook") { _ in }
        step.before(tags: "@fail-before") { _ in throw KitError("Exception in conditional hook") }
        step.expression("a step passes") { _ in }
        step.after(tags: "@fail-after") { _ in throw KitError("Exception in conditional hook") }
        step.after(tags: "@passing-hook") { _ in }
    }
}

final class UndefinedHookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<UndefinedHookSteps>) {
        step.before { _ in }
        step.after { _ in }
    }
}

/// A flight, from its `LHR-CDG` text.
struct Flight: StepArgument, Sendable {
    var from: String
    var to: String
    init(from: String, to: String) {
        self.from = from
        self.to = to
    }
    init?(stepArgument text: String) {
        let parts = text.split(separator: "-").map(String.init)
        guard parts.count == 2 else { return nil }
        self.init(from: parts[0], to: parts[1])
    }
}

final class FlightSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<FlightSteps>) {
        step.parameterType("flight", regexps: ["([A-Z]{3})-([A-Z]{3})"]) { groups in Flight(from: groups[0] ?? "", to: groups[1] ?? "") }
        step.expression("{flight} has been delayed") { (_: FlightSteps, flight: Flight) in
            try expectEqual(flight.from, "LHR")
            try expectEqual(flight.to, "CDG")
        }
    }
}

final class VegetableSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<VegetableSteps>) {
        step("^a (.*?)(?: and a (.*?))?(?: and a (.*?))?$") { (_: VegetableSteps, _: String, _: String?, _: String?) in }
    }
}

/// How many times each retry step has run in this process (a retry runs
/// in the worker that ran the first attempt).
private let retryCounts = Mutex<[String: Int]>([:])

final class RetrySteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<RetrySteps>) {
        step.expression("a step that always passes") { _ in }
        step.expression("a step that passes the second time") { _ in
            let count = retryCounts.withLock { counts in counts["second", default: 0] += 1; return counts["second"]! }
            if count < 2 { throw KitError("Exception in step") }
        }
        step.expression("a step that passes the third time") { _ in
            let count = retryCounts.withLock { counts in counts["third", default: 0] += 1; return counts["third"]! }
            if count < 3 { throw KitError("Exception in step") }
        }
        step.expression("a step that always fails") { _ in throw KitError("Exception in step") }
    }
}

final class AmbiguousRetrySteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<AmbiguousRetrySteps>) {
        step.expression("an ambiguous step") { _ in }
        step.expression("an ambiguous step") { _ in }
    }
}

final class AmbiguousSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<AmbiguousSteps>) {
        step("^a (.*?) with (.*?)$") { (_: AmbiguousSteps, _: String, _: String) in }
        step("^a step with (.*?)$") { (_: AmbiguousSteps, _: String) in }
    }
}

final class ChocolateSteps: StepDefinitions {
    var money = 0
    var stock: [String] = []
    var chocolate: String?
    required init() {}
    static func define(_ step: StepMap<ChocolateSteps>) {
        step.expression("the customer has {int} cents") { (steps: ChocolateSteps, money: Int) in steps.money = money }
        step.expression("there are chocolate bars in stock") { steps in steps.stock = ["Mars"] }
        step.expression("there are no chocolate bars in stock") { steps in steps.stock = [] }
        step.expression("the customer tries to buy a {int} cent chocolate bar") { (steps: ChocolateSteps, price: Int) in
            if steps.money >= price { steps.chocolate = steps.stock.popLast() }
        }
        step.expression("the sale should not happen") { steps in try expectNil(steps.chocolate) }
        step.expression("the sale should happen") { steps in try expectNotNil(steps.chocolate) }
    }
}

final class StackTraceSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<StackTraceSteps>) {
        step.expression("a step throws an exception") { _ in throw KitError("BOOM") }
    }
}

final class UndefinedSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<UndefinedSteps>) {
        step.expression("an implemented step") { _ in }
        step.expression("a step that will be skipped") { _ in }
    }
}

final class UnusedSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<UnusedSteps>) {
        step.expression("a step that is used") { _ in }
        step.expression("a step that is not used") { _ in }
    }
}

final class UnknownParameterTypeSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<UnknownParameterTypeSteps>) {
        step.expression("{airport} is closed because of a strike") { (_: UnknownParameterTypeSteps, _: String) in
            throw KitError("Should not be called because airport parameter type has not been defined")
        }
    }
}

final class AttachmentSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<AttachmentSteps>) {
        step.expression("the string {string} is attached as {string}") { (_: AttachmentSteps, text: String, mediaType: String) in
            attach(text, mediaType: mediaType)
        }
        step.expression("the string {string} is logged") { (_: AttachmentSteps, text: String) in log(text) }
        step.expression("text with ANSI escapes is logged") { _ in
            log("This displays a \u{1b}[31mr\u{1b}[0m\u{1b}[91ma\u{1b}[0m\u{1b}[33mi\u{1b}[0m\u{1b}[32mn\u{1b}[0m\u{1b}[34mb\u{1b}[0m\u{1b}[95mo\u{1b}[0m\u{1b}[35mw\u{1b}[0m")
        }
        step.expression("the following string is attached as {string}:") { (_: AttachmentSteps, mediaType: String, text: DocString) in
            attach(text.content, mediaType: mediaType)
        }
        step.expression("an array with {int} bytes is attached as {string}") { (_: AttachmentSteps, size: Int, mediaType: String) in
            attach(Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }), mediaType: mediaType)
        }
        step.expression("a PDF document is attached and renamed") { _ in
            attach(sampleFile("attachments", "document.pdf"), mediaType: "application/pdf", name: "renamed.pdf")
        }
        step.expression("a link to {string} is attached") { (_: AttachmentSteps, uri: String) in
            // storyrun has no `link`: a URI list is the nearest attachment.
            attach(uri, mediaType: "text/uri-list")
        }
        step.expression("the string {string} is attached as {string} before a failure") { (_: AttachmentSteps, text: String, mediaType: String) in
            attach(text, mediaType: mediaType)
            throw KitError("whoops")
        }
    }
}

final class ImageAttachmentSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<ImageAttachmentSteps>) {
        step.expression("a JPEG image is attached") { _ in
            attach(sampleFile("examples-tables-attachment", "cucumber.jpeg"), mediaType: "image/jpeg")
        }
        step.expression("a PNG image is attached") { _ in
            attach(sampleFile("examples-tables-attachment", "cucumber.png"), mediaType: "image/png")
        }
    }
}

final class TestRunExceptionSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<TestRunExceptionSteps>) {
        step.expression("a step") { _ in }
    }
}

final class PendingSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<PendingSteps>) {
        step.expression("an implemented non-pending step") { _ in }
        step.expression("an implemented step that is skipped") { _ in }
        step.expression("an unimplemented pending step") { _ in try pending() }
    }
}

final class PendingExceptionSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<PendingExceptionSteps>) {
        step.expression("an unimplemented pending step") { _ in try pending("TODO") }
    }
}

final class RetryPendingSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<RetryPendingSteps>) {
        step.expression("a pending step") { _ in try pending() }
    }
}

final class SkippedSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<SkippedSteps>) {
        step.expression("a step that does not skip") { _ in }
        step.expression("a step that is skipped") { _ in }
        step.expression("I skip a step") { _ in try skip() }
    }
}

final class SkippedExceptionSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<SkippedExceptionSteps>) {
        step.expression("I skip a step") { _ in try skip("skipping") }
    }
}

final class SkippedFailingHookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<SkippedFailingHookSteps>) {
        step.expression("a step that skips") { _ in try skip() }
        step.after { _ in throw KitError("whoops") }
    }
}

final class HooksSkippedSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<HooksSkippedSteps>) {
        step.before { _ in }
        step.before(tags: "@skip-before") { _ in try skip() }
        step.before { _ in }
        step.expression("a normal step") { _ in }
        step.expression("a step that skips") { _ in try skip() }
        step.after { _ in }
        step.after(tags: "@skip-after") { _ in try skip() }
        step.after { _ in }
    }
}

/// all-statuses and failedish-combinations: the same six definitions, in
/// the order each sample registers them.
final class AllStatusesSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<AllStatusesSteps>) {
        step("^a step$") { _ in }
        step("^a failing step$") { _ in throw KitError("whoops") }
        step("^a pending step$") { _ in try pending() }
        step("^a skipped step$") { _ in try skip() }
        step("^an ambiguous (.*?)$") { (_: AllStatusesSteps, _: String) in }
        step("^(.*?) ambiguous step$") { (_: AllStatusesSteps, _: String) in }
    }
}

final class FailedishSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<FailedishSteps>) {
        step("^a step$") { _ in }
        step("^a skipped step$") { _ in try skip() }
        step("^a pending step$") { _ in try pending() }
        step("^an ambiguous (.*?)$") { (_: FailedishSteps, _: String) in }
        step("^(.*?) ambiguous step$") { (_: FailedishSteps, _: String) in }
        step("^a failing step$") { _ in throw KitError("whoops") }
    }
}

final class NamedHookSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<NamedHookSteps>) {
        step.before(name: "A named before hook") { _ in }
        step.expression("a step passes") { _ in }
        step.after(name: "A named after hook") { _ in }
    }
}
