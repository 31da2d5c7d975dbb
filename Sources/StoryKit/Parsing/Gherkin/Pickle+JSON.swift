extension Pickle {
    /// The pickle as one NDJSON line in the official message shape,
    /// `{"pickle":{…}}`, with keys sorted as in Cucumber's test data.
    var jsonLine: String { jsonLine(idOffset: 0) }

    /// ``jsonLine`` with every id moved on by `idOffset`: the ids of a
    /// stream of many files go on from file to file, as the official
    /// parser numbers them.
    func jsonLine(idOffset: Int) -> String {
        var out = #"{"pickle":{"astNodeIds":"#
        out += Self.json(astNodeIDs.map { $0 + idOffset })
        out += #","id":"\#(id + idOffset)""#
        out += #","language":"# + Self.json(language)
        out += #","location":{"column":\#(location.column),"line":\#(location.line)}"#
        out += #","name":"# + Self.json(name)
        out += #","steps":["#
        for (index, step) in steps.enumerated() {
            if index > 0 { out += "," }
            out += "{"
            if step.docString != nil || step.dataTable != nil {
                out += #""argument":{"# + argumentJSON(step) + "},"
            }
            out += #""astNodeIds":"# + Self.json(step.astNodeIDs.map { $0 + idOffset })
            out += #","id":"\#(step.id + idOffset)""#
            out += #","text":"# + Self.json(step.text)
            out += #","type":"# + Self.json(step.type.rawValue) + "}"
        }
        out += #"],"tags":["#
        out += tags.map { #"{"astNodeId":"\#($0.astNodeID + idOffset)","name":"# + Self.json($0.name) + "}" }
            .joined(separator: ",")
        out += #"],"uri":"# + Self.json(uri) + "}}"
        return out
    }

    private func argumentJSON(_ step: Step) -> String {
        var parts: [String] = []
        // With both arguments, each says which was written first.
        var tableIndex = ""
        var docIndex = ""
        if let table = step.source.dataTable, let doc = step.source.docString, step.dataTable != nil,
            step.docString != nil
        {
            let isTableFirst = doc.location.line > table.location.line
            tableIndex = #""argumentIndex":\#(isTableFirst ? 1 : 2),"#
            docIndex = #""argumentIndex":\#(isTableFirst ? 2 : 1),"#
        }
        if let rows = step.dataTable {
            let body = rows.map { row in
                #"{"cells":["# + row.map { #"{"value":"# + Self.json($0) + "}" }.joined(separator: ",") + "]}"
            }
            parts.append(#""dataTable":{"# + tableIndex + #""rows":["# + body.joined(separator: ",") + "]}")
        }
        if let doc = step.docString {
            var text = #""docString":{"# + docIndex + #""content":"# + Self.json(doc.content)
            if let mediaType = doc.mediaType { text += #","mediaType":"# + Self.json(mediaType) }
            parts.append(text + "}")
        }
        return parts.joined(separator: ",")
    }

    private static func json(_ ids: [Int]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// Quotes a string as JSON.
    static func json(_ string: String) -> String {
        JSONValue.quoted(string)
    }
}
