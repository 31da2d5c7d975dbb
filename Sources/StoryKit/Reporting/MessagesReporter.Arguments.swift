import Foundation

extension MessagesReporter {
    /// Appends a match's `stepMatchArguments` as JSON text: each argument's
    /// group with where it starts, its value and the groups nested in it,
    /// all read from the spans the match carries (``MatchInfo/spans``) and
    /// its definition's ``GroupLayout``; an argument the spans do not
    /// place (none, one that disagrees with the argument on taking part,
    /// or one past the step's text) has its value alone.
    static func writeMatchArguments(_ match: MatchInfo, layout: GroupLayout, text: String, into json: inout JSONWriter) {
        var text = text
        text.withUTF8 { bytes in
            json.beginObject()
            json.key("stepMatchArguments")
            json.beginArray()
            for index in match.arguments.indices {
                json.beginObject()
                json.key("group")
                // A group placed only when its span and its text agree on taking part,
                // and its span lies within the step's text (else the value alone, as Cucumber JSON does).
                if let group = layout.group(ofArgument: index, in: match), (match.spans[group] == nil) == (match.arguments[index] == nil),
                    match.spans[group].map({ $0.upperBound <= bytes.count }) ?? true {
                    writeGroup(group, of: match.spans, layout: layout, in: bytes, into: &json)
                } else {
                    json.beginObject()
                    if let value = match.arguments[index] {
                        json.key("value")
                        json.string(value)
                    }
                    json.endObject()
                }
                if let names = layout.parameterTypeNames, index < names.count {
                    json.key("parameterTypeName")
                    json.string(names[index])
                }
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
    }

    /// A group as Messages write it: `start` (UTF-16) and `value` when it
    /// took part, `children` when groups nest in it.
    private static func writeGroup(
        _ group: Int, of spans: GroupSpans, layout: GroupLayout, in bytes: UnsafeBufferPointer<UInt8>, into json: inout JSONWriter
    ) {
        json.beginObject()
        if let span = spans[group], span.upperBound <= bytes.count {
            json.key("start")
            json.integer(Int64(TextOffsets.utf16Units(before: span.lowerBound, in: bytes)))
            json.key("value")
            json.string(UnsafeBufferPointer(rebasing: bytes[span]))
        }
        var hasChildren = false
        for child in (group + 1)..<max(group + 1, spans.count) where layout.isChild(child, of: group) {
            if !hasChildren {
                json.key("children")
                json.beginArray()
            }
            hasChildren = true
            writeGroup(child, of: spans, layout: layout, in: bytes, into: &json)
        }
        if hasChildren { json.endArray() }
        json.endObject()
    }
}
