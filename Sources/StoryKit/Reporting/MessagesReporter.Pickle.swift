import Foundation

extension MessagesReporter {
    /// A story as a Cucumber `pickle`, with the IDs given to it and its steps.
    struct Pickle {
        var id: String
        var stepIDs: [String]
        var result: StoryResult

        init(result: StoryResult, ids: inout IDs) {
            self.result = result
            id = ids.next()
            stepIDs = result.steps.map { _ in ids.next() }
        }

        var json: JSONValue {
            let story = result.story
            let steps: [JSONValue] = zip(stepIDs, result.steps).map { id, step in
                var members: [(String, JSONValue)] = [
                    ("astNodeIds", .array([])), ("id", .string(id)),
                    ("type", .string(Self.type(step.step.kind))), ("text", .string(step.step.text)),
                ]
                switch step.step.attachment {
                case .docString(let doc):
                    members.append(("argument", .object([("docString", .object([("content", .string(doc.content))]))])))
                case .dataTable(let table):
                    let rows = table.rows.map { row in JSONValue.object([("cells", .array(row.map { .object([("value", .string($0))]) }))]) }
                    members.append(("argument", .object([("dataTable", .object([("rows", .array(rows))]))])))
                case nil:
                    break
                }
                return .object(members)
            }
            return .object([
                ("id", .string(id)), ("uri", .string(story.location.displayPath)),
                ("location", .object([("line", .int(Int64(story.location.line)))])),
                ("name", .string(story.name)), ("language", .string("en")),
                ("steps", .array(steps)),
                ("tags", .array(story.tags.map { .object([("name", .string($0)), ("astNodeId", .string(""))]) })),
                ("astNodeIds", .array([])),
            ])
        }

        static func type(_ kind: Step.Kind) -> String {
            switch kind {
            case .context: "Context"
            case .action: "Action"
            case .outcome: "Outcome"
            case .role, .unknown: "Unknown"
            }
        }
    }

    /// IDs that count up from 1, so the stream is the same on every run.
    struct IDs {
        private var last = 0

        mutating func next() -> String {
            last += 1
            return String(last)
        }
    }

    /// The time of the run so far: the start time plus the durations seen.
    struct Clock {
        var start: Date
        /// Nanoseconds since the start.
        var nanoseconds: UInt64 = 0

        var timestamp: JSONValue {
            let startNanos = Int64((start.timeIntervalSince1970 * 1_000_000_000).rounded())
            let total = startNanos &+ Int64(clamping: nanoseconds)
            return .object([("seconds", .int(total / 1_000_000_000)), ("nanos", .int(total % 1_000_000_000))])
        }

        static func json(_ duration: UInt64) -> JSONValue {
            .object([("seconds", .int(Int64(duration / 1_000_000_000))), ("nanos", .int(Int64(duration % 1_000_000_000)))])
        }
    }
}

extension MatchInfo {
    /// What identifies the step definition behind a match.
    struct Key: Hashable {
        var pattern: String
        var location: SourceLocation
    }

    var key: Key { Key(pattern: pattern, location: location) }
}
