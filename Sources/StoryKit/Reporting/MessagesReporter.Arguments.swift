import Foundation

extension MessagesReporter {
    /// Appends a match's `stepMatchArguments` as JSON text: each argument's
    /// group with where it starts, its value and the groups nested in it,
    /// all read from the spans the match carries (``MatchInfo/spans``) and
    /// its definition's ``GroupLayout``; an argument the spans do not
    /// place has its value alone.
    static func writeMatchArguments(_ match: MatchInfo, layout: GroupLayout, text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            out.literal(#"{"stepMatchArguments":["#)
            for index in match.arguments.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.literal(#"{"group":"#)
                // A group placed only when its span and its text agree on taking part.
                if let group = layout.group(ofArgument: index, in: match), (match.spans[group] == nil) == (match.arguments[index] == nil) {
                    writeGroup(group, of: match.spans, layout: layout, in: bytes, into: &out)
                } else if let value = match.arguments[index] {
                    out.literal(#"{"value":"#)
                    JSONValue.writeString(value, into: &out)
                    out.append(UInt8(ascii: "}"))
                } else {
                    out.literal("{}")
                }
                if let names = layout.parameterTypeNames, index < names.count {
                    out.literal(#","parameterTypeName":"#)
                    JSONValue.writeString(names[index], into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.literal("]}")
        }
    }

    /// A group as Messages write it: `start` (UTF-16) and `value` when it
    /// took part, `children` when groups nest in it.
    private static func writeGroup(
        _ group: Int, of spans: GroupSpans, layout: GroupLayout, in bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "{"))
        var isFirst = true
        if let span = spans[group], span.upperBound <= bytes.count {
            out.literal(#""start":"#)
            JSONValue.writeInteger(Int64(TextOffsets.utf16Units(before: span.lowerBound, in: bytes)), into: &out)
            out.literal(#","value":""#)
            JSONValue.writeEscaped(UnsafeBufferPointer(rebasing: bytes[span]), into: &out)
            out.append(UInt8(ascii: "\""))
            isFirst = false
        }
        var hasChildren = false
        for child in (group + 1)..<max(group + 1, spans.count) where layout.isChild(child, of: group) {
            if !hasChildren {
                if !isFirst { out.append(UInt8(ascii: ",")) }
                out.literal(#""children":["#)
            } else {
                out.append(UInt8(ascii: ","))
            }
            hasChildren = true
            writeGroup(child, of: spans, layout: layout, in: bytes, into: &out)
        }
        if hasChildren { out.append(UInt8(ascii: "]")) }
        out.append(UInt8(ascii: "}"))
    }
}
