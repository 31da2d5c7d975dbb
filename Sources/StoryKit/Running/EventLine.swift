import Foundation

/// How a worker process sends run events to its parent: one JSON line per
/// event after a marker, so anything else a step prints passes through.
enum EventLine {
    /// Starts every event line; a step is unlikely to print it.
    static let marker = "\u{1E}storyrun-event "

    /// The line for an event.
    static func encode(_ event: RunEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(event)) ?? Data("{}".utf8)
        return marker + String(decoding: data, as: UTF8.self)
    }

    /// The event on a line, or nil for a line that is not an event.
    static func decode(_ line: String) -> RunEvent? {
        guard line.hasPrefix(marker) else { return nil }
        return try? JSONDecoder().decode(RunEvent.self, from: Data(line.dropFirst(marker.count).utf8))
    }
}
