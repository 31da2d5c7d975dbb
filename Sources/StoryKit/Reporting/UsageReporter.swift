import Foundation

/// `--format usage`: every step definition with the steps that used it and
/// their durations (mean and max), slowest first, then the unused
/// definitions — Cucumber's usage formatter.
struct UsageReporter: Reporter {
    private let style: TextStyle
    private let write: (String) -> Void
    /// Every definition of the run, for the unused ones.
    private let definitions: [(pattern: String, location: SourceLocation)]
    /// The steps each definition ran, by pattern and location.
    private var uses: [String: (pattern: String, location: SourceLocation, steps: [(step: Step, duration: UInt64)])] = [:]

    /// Creates the reporter; `definitions` lists every definition, for the unused ones.
    init(style: TextStyle, definitions: [(pattern: String, location: SourceLocation)], write: @escaping (String) -> Void) {
        self.style = style
        self.definitions = definitions
        self.write = write
    }

    mutating func handle(_ event: RunEvent) {
        guard case .storyFinished(let result) = event else { return }
        for case .step(let step) in result.testSteps {
            guard let match = step.match else { continue }
            let key = "\(match.location.fileAndLine) \(match.pattern)"
            uses[key, default: (match.pattern, match.location, [])].steps.append((step.step, step.duration))
        }
    }

    mutating func finish() throws {
        let used = uses.values.map { entry -> (pattern: String, location: SourceLocation, mean: UInt64, max: UInt64, steps: [(step: Step, duration: UInt64)]) in
            let total = entry.steps.reduce(UInt64(0)) { $0 &+ $1.duration }
            let mean = entry.steps.isEmpty ? 0 : total / UInt64(entry.steps.count)
            let slowest = entry.steps.map(\.duration).max() ?? 0
            return (entry.pattern, entry.location, mean, slowest, entry.steps.sorted { $0.duration > $1.duration })
        }.sorted { ($0.mean, $1.location.fileAndLine) > ($1.mean, $0.location.fileAndLine) }
        write(style.paint("Step definitions by mean duration, slowest first:", .cyan))
        for entry in used {
            write("  \(Self.seconds(entry.mean)) mean  \(Self.seconds(entry.max)) max  \"\(entry.pattern)\"  \(style.paint(entry.location.displayFileAndLine, .gray))  (\(entry.steps.count) step\(entry.steps.count == 1 ? "" : "s"))")
            for use in entry.steps {
                write("    \(Self.seconds(use.duration))  \(use.step.line)  \(style.paint(use.step.location.displayFileAndLine, .gray))")
            }
        }
        let usedKeys = Set(uses.keys)
        let unused = definitions.filter { !usedKeys.contains("\($0.location.fileAndLine) \($0.pattern)") }
        if !unused.isEmpty {
            write(style.paint("Unused step definitions:", .cyan))
            for definition in unused {
                write("  \"\(definition.pattern)\"  \(style.paint(definition.location.displayFileAndLine, .gray))")
            }
        }
    }

    /// A duration in seconds with three decimals (`0.012s`).
    static func seconds(_ nanoseconds: UInt64) -> String {
        String(format: "%.3fs", Double(nanoseconds) / 1e9)
    }
}
