import Foundation

/// A story attempt as an Allure result: its test steps laid out one after
/// another from its start, each with its status, error and attachments.
extension AllureResult {
    /// One attempt of a story.
    struct Attempt {
        var status: StoryStatus
        var testSteps: [TestStepResult]
        /// Milliseconds since 1970.
        var start: Int64
        var stop: Int64
        var isFlaky = false
        var wasInterrupted = false
    }

    /// Makes the result of an attempt; `attach` writes an attachment's file
    /// and names it.
    init(_ attempt: Attempt, identity: AllureIdentity, uuid: String, attach: (Attachment) -> AllureAttachment?) {
        var cursor = attempt.start
        var steps: [AllureStep] = []
        for testStep in attempt.testSteps {
            let start = cursor
            cursor += Int64(testStep.duration / 1_000_000)
            // A hook that passed and attached nothing says nothing.
            if let hook = testStep.hookResult, hook.status == .passed, hook.attachments.isEmpty { continue }
            steps.append(
                AllureStep(
                    name: testStep.title, status: Self.status(testStep.status, kind: testStep.error?.kind),
                    statusDetails: Self.details(testStep), start: start, stop: min(cursor, max(attempt.stop, start)),
                    attachments: testStep.attachments.compactMap(attach)))
        }
        self.init(
            uuid: uuid, historyId: identity.historyId, testCaseId: identity.testCaseId, fullName: identity.fullName,
            name: identity.name, status: Self.status(of: attempt), statusDetails: Self.details(of: attempt),
            start: attempt.start, stop: attempt.stop, steps: steps, parameters: identity.parameters,
            labels: identity.labels, titlePath: identity.titlePath)
    }

    /// Allure's status of a test step: a failed expectation is `failed`,
    /// any other failure `broken`, as Allure's own adapters say.
    static func status(_ status: StepStatus, kind: String?) -> AllureStatus {
        switch status {
        case .passed: .passed
        case .failed: kind.map(isExpectation) == true ? .failed : .broken
        case .ambiguous, .undefined: .broken
        case .pending, .skipped: .skipped
        }
    }

    /// Whether an error kind is an expectation that did not hold.
    static func isExpectation(_ kind: String) -> Bool {
        kind == String(reflecting: ExpectationFailure.self)
    }

    private static func status(of attempt: Attempt) -> AllureStatus {
        switch attempt.status {
        case .passed: return .passed
        case .skipped, .pending: return .skipped
        case .undefined: return .broken
        case .failed:
            guard let failing = attempt.testSteps.first(where: \.isFailure) else { return .broken }
            return status(failing.status, kind: failing.error?.kind)
        }
    }

    private static func details(_ testStep: TestStepResult) -> AllureStatusDetails? {
        switch testStep.status {
        case .passed: return nil
        case .undefined: return AllureStatusDetails(message: "no step definition matches \"\(testStep.title)\"")
        case .failed, .ambiguous: return AllureStatusDetails(message: ReportText.cut(testStep.error?.message ?? testStep.status.rawValue), trace: testStep.failureText)
        case .pending, .skipped: return testStep.error.map { AllureStatusDetails(message: ReportText.cut($0.message)) }
        }
    }

    private static func details(of attempt: Attempt) -> AllureStatusDetails? {
        var details: AllureStatusDetails?
        switch attempt.status {
        case .passed:
            details = nil
        case .failed:
            if let failing = attempt.testSteps.first(where: \.isFailure) {
                details = AllureStatusDetails(message: ReportText.cut(failing.shortReason), trace: ReportText.cut(failing.failureText))
            } else {
                details = AllureStatusDetails(message: attempt.wasInterrupted ? "the run was interrupted" : "failed")
            }
        case .undefined:
            let undefined = attempt.testSteps.filter { $0.status == .undefined }.map(\.title)
            details = AllureStatusDetails(message: "undefined steps: " + undefined.joined(separator: "; "))
        case .pending, .skipped:
            let wanted: StepStatus = attempt.status == .pending ? .pending : .skipped
            let reason = attempt.testSteps.first { $0.status == wanted && $0.error != nil }?.error?.message
            details = reason.map { AllureStatusDetails(message: ReportText.cut($0)) }
        }
        if attempt.isFlaky { details = AllureStatusDetails(message: details?.message, trace: details?.trace, flaky: true) }
        return details
    }
}
