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

        /// ``id(_:)``'s text, without quotes (it needs no escape).
        private func writeIDText(_ local: Int, into out: inout [UInt8]) {
            if let marker {
                marker.marker.write(.file, local + 1, file: marker.file, into: &out)
            } else {
                JSONValue.writeInteger(Int64(base + local), into: &out)
            }
        }

        /// Writes ``id(_:)`` as a JSON string.
        func id(_ local: Int, into json: inout JSONWriter) {
            json.string { writeIDText(local, into: &$0) }
        }

        /// Writes the `gherkinDocument` message, straight as
        /// bytes (a file's whole syntax tree, thousands of nodes): the
        /// text ``JSONValue`` makes of the same members, in the same order.
        func writeDocument(into json: inout JSONWriter) {
            json.beginObject()
            json.key("uri")
            json.string(uri)
            if let feature = info.feature {
                json.key("feature")
                write(feature, into: &json)
            }
            json.key("comments")
            json.beginArray()
            for comment in info.document?.comments ?? [] {
                json.beginObject()
                json.key("location")
                write(comment.location, into: &json)
                json.key("text")
                json.string(comment.text)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }

        /// `{"line":…,"column":…}`.
        private func write(_ place: GherkinLocation, into json: inout JSONWriter) {
            json.beginObject()
            json.key("line")
            json.integer(place.line)
            json.key("column")
            json.integer(place.column)
            json.endObject()
        }

        /// `"id":…,"location":…`: the members every node starts with.
        private func writeIDAndLocation(_ id: Int, _ place: GherkinLocation, into json: inout JSONWriter) {
            json.key("id")
            self.id(id, into: &json)
            json.key("location")
            write(place, into: &json)
        }

        /// `"tags":[…]`.
        private func write(_ tags: [GherkinTag], into json: inout JSONWriter) {
            json.key("tags")
            json.beginArray()
            for tag in tags {
                json.beginObject()
                json.key("location")
                write(tag.location, into: &json)
                json.key("name")
                json.string(tag.name)
                json.key("id")
                id(tag.id, into: &json)
                json.endObject()
            }
            json.endArray()
        }

        /// `"keyword":…,"name":…,"description":…`.
        private func writeTitle(keyword: String, name: String, description: String, into json: inout JSONWriter) {
            json.key("keyword")
            json.string(keyword)
            json.key("name")
            json.string(name)
            json.key("description")
            json.string(description)
        }

        private func write(_ feature: GherkinFeature, into json: inout JSONWriter) {
            json.beginObject()
            json.key("location")
            write(feature.location, into: &json)
            write(feature.tags, into: &json)
            json.key("language")
            json.string(feature.language)
            writeTitle(keyword: feature.keyword, name: feature.name, description: feature.description, into: &json)
            write(children: feature.children, into: &json)
            json.endObject()
        }

        /// `"children":[…]` of a feature or rule.
        private func write(children: [GherkinFeature.Child], into json: inout JSONWriter) {
            json.key("children")
            json.beginArray()
            for child in children {
                write(child, into: &json)
            }
            json.endArray()
        }

        private func write(_ child: GherkinFeature.Child, into json: inout JSONWriter) {
            json.beginObject()
            switch child {
            case .background(let background):
                json.key("background")
                json.beginObject()
                writeIDAndLocation(background.id, background.location, into: &json)
                writeTitle(keyword: background.keyword, name: background.name, description: background.description, into: &json)
                write(steps: background.steps, into: &json)
            case .scenario(let scenario):
                json.key("scenario")
                json.beginObject()
                writeIDAndLocation(scenario.id, scenario.location, into: &json)
                write(scenario.tags, into: &json)
                writeTitle(keyword: scenario.keyword, name: scenario.name, description: scenario.description, into: &json)
                write(steps: scenario.steps, into: &json)
                json.key("examples")
                json.beginArray()
                for examples in scenario.examples {
                    write(examples, into: &json)
                }
                json.endArray()
            case .rule(let rule):
                json.key("rule")
                json.beginObject()
                writeIDAndLocation(rule.id, rule.location, into: &json)
                write(rule.tags, into: &json)
                writeTitle(keyword: rule.keyword, name: rule.name, description: rule.description, into: &json)
                write(children: rule.children, into: &json)
            }
            json.endObject()
            json.endObject()
        }

        private func write(_ examples: GherkinExamples, into json: inout JSONWriter) {
            json.beginObject()
            writeIDAndLocation(examples.id, examples.location, into: &json)
            write(examples.tags, into: &json)
            writeTitle(keyword: examples.keyword, name: examples.name, description: examples.description, into: &json)
            if let header = examples.tableHeader {
                json.key("tableHeader")
                writeRow(header.id, header.location, header.cells, into: &json)
            }
            json.key("tableBody")
            json.beginArray()
            for row in examples.tableBody {
                writeRow(row.id, row.location, row.cells, into: &json)
            }
            json.endArray()
            json.endObject()
        }

        private func writeRow(_ rowID: Int, _ place: GherkinLocation, _ cells: [String], into json: inout JSONWriter) {
            let columns = info.cellColumns(line: place.line)
            json.beginObject()
            writeIDAndLocation(rowID, place, into: &json)
            json.key("cells")
            json.beginArray()
            for (index, value) in cells.enumerated() {
                let column = index < columns.count ? columns[index] : place.column
                json.beginObject()
                json.key("location")
                write(GherkinLocation(line: place.line, column: column), into: &json)
                json.key("value")
                json.string(value)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }

        /// `"steps":[…]`.
        private func write(steps: [GherkinStep], into json: inout JSONWriter) {
            json.key("steps")
            json.beginArray()
            for index in steps.indices {
                write(steps[index], into: &json)
            }
            json.endArray()
        }

        private func write(_ step: GherkinStep, into json: inout JSONWriter) {
            json.beginObject()
            writeIDAndLocation(step.id, step.location, into: &json)
            json.key("keyword")
            json.string(step.keyword)
            json.key("keywordType")
            json.string(step.keywordType.rawValue)
            json.key("text")
            json.string(step.text)
            if let table = step.dataTable {
                // The parser numbers a table's rows just before its step.
                let lines = info.tableRowLines(from: table.location.line, count: table.rows.count)
                let firstRowID = step.id - table.rows.count
                json.key("dataTable")
                json.beginObject()
                json.key("location")
                write(table.location, into: &json)
                json.key("rows")
                json.beginArray()
                for (index, cells) in table.rows.enumerated() {
                    let line = lines[index]
                    let column = info.cellColumns(line: line).first.map { $0 - 2 } ?? table.location.column
                    writeRow(firstRowID + index, GherkinLocation(line: line, column: index == 0 ? table.location.column : max(1, column)), cells, into: &json)
                }
                json.endArray()
                json.endObject()
            }
            if let doc = step.docString {
                json.key("docString")
                json.beginObject()
                json.key("location")
                write(doc.location, into: &json)
                if let mediaType = doc.mediaType {
                    json.key("mediaType")
                    json.string(mediaType)
                }
                json.key("content")
                json.string(doc.content)
                json.key("delimiter")
                json.string(doc.delimiter)
                json.endObject()
            }
            json.endObject()
        }
    }
}
