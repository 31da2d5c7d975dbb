/// One Allure 2 result file, `{uuid}-result.json`: a story attempt, with
/// the fields Allure's `TestResult` has (as `allure-python-commons`'
/// `model2` and allure2's `io.qameta.allure.model` name them).
struct AllureResult {
    var uuid: String
    /// The same for every run of the same story (and outline row): how
    /// Allure merges retries and shows history.
    var historyId: String
    /// The same for every row of an outline.
    var testCaseId: String
    var fullName: String
    var name: String
    var status: AllureStatus
    var statusDetails: AllureStatusDetails?
    var stage = "finished"
    /// Milliseconds since 1970.
    var start: Int64
    var stop: Int64
    var steps: [AllureStep]
    var attachments: [AllureAttachment] = []
    var parameters: [AllureParameter]
    var labels: [AllureLabel]
    var titlePath: [String]
}

/// A test step of a result: a story step or a hook.
struct AllureStep {
    var name: String
    var status: AllureStatus
    var statusDetails: AllureStatusDetails?
    var stage = "finished"
    var start: Int64
    var stop: Int64
    var attachments: [AllureAttachment]
}

/// Allure's statuses: `failed` for a failed expectation, `broken` for any
/// other error (a thrown error, a crash, an undefined or ambiguous step).
enum AllureStatus: String {
    case passed, failed, broken, skipped
}

/// Why a result or step did not pass.
struct AllureStatusDetails {
    var message: String?
    var trace: String?
    /// Set on a story that passed only when run again (`--retry`).
    var flaky: Bool?
}

/// A file written beside the results, `{uuid}-attachment.{ext}`.
struct AllureAttachment {
    var name: String
    var source: String
    var type: String
}

/// An outline row's cell, named by its column.
struct AllureParameter {
    var name: String
    var value: String
}

/// A label: feature, story, tag, suite, host…
struct AllureLabel {
    var name: String
    var value: String
}
