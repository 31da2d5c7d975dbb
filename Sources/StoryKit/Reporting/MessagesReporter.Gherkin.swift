extension MessagesReporter {
    /// A file's `gherkinDocument` message and pickles, with the file's ids
    /// moved past those of the files before it (`base`).
    struct GherkinFile {
        let info: StoryFileInfo
        let uri: String
        let base: Int

        /// Markers in place of numbers (``IDMarker``), for the file at this index.
        var marker: (marker: IDMarker, file: Int)? = nil

        func id(_ local: Int) -> String {
            guard let marker else { return String(base + local) }
            return marker.marker.text(.file, local + 1, file: marker.file)
        }

        /// Appends ``id(_:)`` as a JSON string.
        func writeID(_ local: Int, into out: inout [UInt8]) {
            out.append(UInt8(ascii: "\""))
            if let marker {
                marker.marker.write(.file, local + 1, file: marker.file, into: &out)
            } else {
                JSONValue.writeInteger(Int64(base + local), into: &out)
            }
            out.append(UInt8(ascii: "\""))
        }

        /// Appends the `gherkinDocument` message as JSON text, straight as
        /// bytes (a file's whole syntax tree, thousands of nodes): the
        /// text ``JSONValue`` makes of the same members, in the same order.
        func writeDocument(into out: inout [UInt8]) {
            out.literal(#"{"uri":"#)
            JSONValue.writeString(uri, into: &out)
            if let feature = info.feature {
                out.literal(#","feature":"#)
                write(feature, into: &out)
            }
            out.literal(#","comments":["#)
            for (index, comment) in (info.document?.comments ?? []).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.literal(#"{"location":"#)
                write(comment.location, into: &out)
                out.literal(#","text":"#)
                JSONValue.writeString(comment.text, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.literal("]}")
        }

        /// `{"line":…,"column":…}`.
        private func write(_ place: GherkinLocation, into out: inout [UInt8]) {
            out.literal(#"{"line":"#)
            JSONValue.writeInteger(Int64(place.line), into: &out)
            out.literal(#","column":"#)
            JSONValue.writeInteger(Int64(place.column), into: &out)
            out.append(UInt8(ascii: "}"))
        }

        /// `"id":…,"location":…`: the members every node starts with.
        private func writeIDAndLocation(_ id: Int, _ place: GherkinLocation, into out: inout [UInt8]) {
            out.literal(#""id":"#)
            writeID(id, into: &out)
            out.literal(#","location":"#)
            write(place, into: &out)
        }

        /// `,"tags":[…]`.
        private func write(_ tags: [GherkinTag], into out: inout [UInt8]) {
            out.literal(#","tags":["#)
            for (index, tag) in tags.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.literal(#"{"location":"#)
                write(tag.location, into: &out)
                out.literal(#","name":"#)
                JSONValue.writeString(tag.name, into: &out)
                out.literal(#","id":"#)
                writeID(tag.id, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }

        /// `,"keyword":…,"name":…,"description":…`.
        private func writeTitle(keyword: String, name: String, description: String, into out: inout [UInt8]) {
            out.literal(#","keyword":"#)
            JSONValue.writeString(keyword, into: &out)
            out.literal(#","name":"#)
            JSONValue.writeString(name, into: &out)
            out.literal(#","description":"#)
            JSONValue.writeString(description, into: &out)
        }

        private func write(_ feature: GherkinFeature, into out: inout [UInt8]) {
            out.literal(#"{"location":"#)
            write(feature.location, into: &out)
            write(feature.tags, into: &out)
            out.literal(#","language":"#)
            JSONValue.writeString(feature.language, into: &out)
            writeTitle(keyword: feature.keyword, name: feature.name, description: feature.description, into: &out)
            write(children: feature.children, into: &out)
            out.literal("}")
        }

        /// `,"children":[…]` of a feature or rule.
        private func write(children: [GherkinFeature.Child], into out: inout [UInt8]) {
            out.literal(#","children":["#)
            for (index, child) in children.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(child, into: &out)
            }
            out.literal("]")
        }

        private func write(_ child: GherkinFeature.Child, into out: inout [UInt8]) {
            switch child {
            case .background(let background):
                out.literal(#"{"background":{"#)
                writeIDAndLocation(background.id, background.location, into: &out)
                writeTitle(keyword: background.keyword, name: background.name, description: background.description, into: &out)
                write(steps: background.steps, into: &out)
                out.literal("}}")
            case .scenario(let scenario):
                out.literal(#"{"scenario":{"#)
                writeIDAndLocation(scenario.id, scenario.location, into: &out)
                write(scenario.tags, into: &out)
                writeTitle(keyword: scenario.keyword, name: scenario.name, description: scenario.description, into: &out)
                write(steps: scenario.steps, into: &out)
                out.literal(#","examples":["#)
                for (index, examples) in scenario.examples.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    write(examples, into: &out)
                }
                out.literal("]}}")
            case .rule(let rule):
                out.literal(#"{"rule":{"#)
                writeIDAndLocation(rule.id, rule.location, into: &out)
                write(rule.tags, into: &out)
                writeTitle(keyword: rule.keyword, name: rule.name, description: rule.description, into: &out)
                write(children: rule.children, into: &out)
                out.literal("}}")
            }
        }

        private func write(_ examples: GherkinExamples, into out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
            writeIDAndLocation(examples.id, examples.location, into: &out)
            write(examples.tags, into: &out)
            writeTitle(keyword: examples.keyword, name: examples.name, description: examples.description, into: &out)
            if let header = examples.tableHeader {
                out.literal(#","tableHeader":"#)
                writeRow(header.id, header.location, header.cells, into: &out)
            }
            out.literal(#","tableBody":["#)
            for (index, row) in examples.tableBody.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeRow(row.id, row.location, row.cells, into: &out)
            }
            out.literal("]}")
        }

        private func writeRow(_ rowID: Int, _ place: GherkinLocation, _ cells: [String], into out: inout [UInt8]) {
            let columns = info.cellColumns(line: place.line)
            out.append(UInt8(ascii: "{"))
            writeIDAndLocation(rowID, place, into: &out)
            out.literal(#","cells":["#)
            for (index, value) in cells.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                let column = index < columns.count ? columns[index] : place.column
                out.literal(#"{"location":"#)
                write(GherkinLocation(line: place.line, column: column), into: &out)
                out.literal(#","value":"#)
                JSONValue.writeString(value, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.literal("]}")
        }

        /// `,"steps":[…]`.
        private func write(steps: [GherkinStep], into out: inout [UInt8]) {
            out.literal(#","steps":["#)
            for index in steps.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(steps[index], into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }

        private func write(_ step: GherkinStep, into out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
            writeIDAndLocation(step.id, step.location, into: &out)
            out.literal(#","keyword":"#)
            JSONValue.writeString(step.keyword, into: &out)
            out.literal(#","keywordType":"#)
            JSONValue.writeString(step.keywordType.rawValue, into: &out)
            out.literal(#","text":"#)
            JSONValue.writeString(step.text, into: &out)
            if let table = step.dataTable {
                // The parser numbers a table's rows just before its step.
                let lines = info.tableRowLines(from: table.location.line, count: table.rows.count)
                let firstRowID = step.id - table.rows.count
                out.literal(#","dataTable":{"location":"#)
                write(table.location, into: &out)
                out.literal(#","rows":["#)
                for (index, cells) in table.rows.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    let line = lines[index]
                    let column = info.cellColumns(line: line).first.map { $0 - 2 } ?? table.location.column
                    writeRow(firstRowID + index, GherkinLocation(line: line, column: index == 0 ? table.location.column : max(1, column)), cells, into: &out)
                }
                out.literal("]}")
            }
            if let doc = step.docString {
                out.literal(#","docString":{"location":"#)
                write(doc.location, into: &out)
                if let mediaType = doc.mediaType {
                    out.literal(#","mediaType":"#)
                    JSONValue.writeString(mediaType, into: &out)
                }
                out.literal(#","content":"#)
                JSONValue.writeString(doc.content, into: &out)
                out.literal(#","delimiter":"#)
                JSONValue.writeString(doc.delimiter, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
