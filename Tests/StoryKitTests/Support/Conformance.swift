import Foundation
import Testing

/// The official test data (Gherkin, Cucumber Expressions, tag expressions, the
/// JUnit 4 and Cucumber Messages schemas), read where it lives rather than
/// copied into the repository: `CONFORMANCE_DIR` when set, else
/// `../shared/conformance` beside the package (the Makefile and the Python
/// scripts read the same variable). Where a suite is absent its tests are
/// skipped with the path they looked in; with `CONFORMANCE_REQUIRED=1` (CI) they
/// run and fail instead.
enum Conformance {
    /// The conformance folder, whether or not it exists.
    static let root: String = {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["CONFORMANCE_DIR"], !folder.isEmpty {
            return URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: Golden.root)).standardizedFileURL.path
        }
        return URL(fileURLWithPath: Golden.root + "/../shared/conformance").standardizedFileURL.path
    }()

    /// Whether a missing suite is an error rather than a skip.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["CONFORMANCE_REQUIRED"] == "1" }

    /// The path of a file or folder of the official data, such as
    /// `gherkin/good` or `junit/junit-4.xsd`.
    static func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether a suite's folder (its first path component) is there.
    static func isPresent(_ suite: String) -> Bool {
        FileManager.default.fileExists(atPath: path(suite))
    }

    /// Whether tests of a suite run: it is there, or it must be.
    static func isAvailable(_ suite: String) -> Bool { isRequired || isPresent(suite) }

    /// The line said once for a suite that is not there.
    static func missing(_ suite: String) -> Comment {
        "official test data not found at \(path(suite)): the \(suite) conformance tests are skipped (set CONFORMANCE_DIR)"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the official suite is present (always under
    /// `CONFORMANCE_REQUIRED=1`, so a missing suite fails there).
    static func conformance(_ suite: String) -> Self {
        .enabled(if: Conformance.isAvailable(suite), Conformance.missing(suite))
    }
}
