import Foundation

/// `--i18n-languages` and `--i18n-keywords LANG`: the Gherkin dialects a
/// `.feature` file may name with `# language:`, as Cucumber lists them.
enum LanguagesCommand {
    /// Prints every language: its code, English name and native name.
    static func languages(output: (String) -> Void) -> ExitStatus {
        let dialects = GherkinDialect.codes.compactMap(GherkinDialect.named)
        let codeWidth = dialects.map(\.code.count).max() ?? 0
        let nameWidth = dialects.map(\.name.count).max() ?? 0
        for dialect in dialects {
            output(
                dialect.code.padding(toLength: codeWidth + 2, withPad: " ", startingAt: 0)
                    + dialect.name.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0) + dialect.native)
        }
        return .success
    }

    /// Prints one language's keywords, a row a kind; step keywords also
    /// without their trailing space, as they are written in Swift code.
    static func keywords(_ code: String, style: TextStyle, output: (String) -> Void) -> ExitStatus {
        guard let dialect = GherkinDialect.named(code) else {
            let guess = GherkinDialect.codes.min { code.editDistance(to: $0) < code.editDistance(to: $1) }
            let suggestion = guess.flatMap { code.editDistance(to: $0) <= 2 ? "did you mean \($0)? " : nil } ?? ""
            output(Diagnostic(
                at: nil, problem: "--i18n-keywords \(code): there is no Gherkin language \"\(code)\"",
                help: suggestion + "`--i18n-languages` lists them").rendered(style: style))
            return .inputError
        }
        output("\(dialect.name) (\(dialect.native)), # language: \(dialect.code)")
        let width = dialect.keywordLists.map(\.kind.count).max() ?? 0
        for (kind, keywords) in dialect.keywordLists {
            output("  " + kind.padding(toLength: width + 2, withPad: " ", startingAt: 0) + keywords.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return .success
    }
}
