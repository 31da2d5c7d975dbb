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

        /// The `gherkinDocument` message.
        var document: JSONValue {
            var members: [(String, JSONValue)] = [("uri", .string(uri))]
            if let feature = info.feature { members.append(("feature", self.feature(feature))) }
            members.append(("comments", .array((info.document?.comments ?? []).map {
                .object([("location", location($0.location)), ("text", .string($0.text))])
            })))
            return .object(members)
        }

        private func location(_ place: GherkinLocation) -> JSONValue {
            .object([("line", .int(Int64(place.line))), ("column", .int(Int64(place.column)))])
        }

        private func tags(_ tags: [GherkinTag]) -> JSONValue {
            .array(tags.map { .object([("location", location($0.location)), ("name", .string($0.name)), ("id", id($0.id).json)]) })
        }

        private func feature(_ feature: GherkinFeature) -> JSONValue {
            .object([
                ("location", location(feature.location)), ("tags", tags(feature.tags)),
                ("language", .string(feature.language)), ("keyword", .string(feature.keyword)),
                ("name", .string(feature.name)), ("description", .string(feature.description)),
                ("children", .array(feature.children.map { self.child($0) })),
            ])
        }

        private func child(_ child: GherkinFeature.Child) -> JSONValue {
            switch child {
            case .background(let background):
                return .object([("background", .object([
                    ("id", id(background.id).json), ("location", location(background.location)),
                    ("keyword", .string(background.keyword)), ("name", .string(background.name)),
                    ("description", .string(background.description)), ("steps", .array(background.steps.map { self.step($0) })),
                ]))])
            case .scenario(let scenario):
                return .object([("scenario", .object([
                    ("id", id(scenario.id).json), ("location", location(scenario.location)), ("tags", tags(scenario.tags)),
                    ("keyword", .string(scenario.keyword)), ("name", .string(scenario.name)),
                    ("description", .string(scenario.description)), ("steps", .array(scenario.steps.map { self.step($0) })),
                    ("examples", .array(scenario.examples.map { self.examples($0) })),
                ]))])
            case .rule(let rule):
                return .object([("rule", .object([
                    ("id", id(rule.id).json), ("location", location(rule.location)), ("tags", tags(rule.tags)),
                    ("keyword", .string(rule.keyword)), ("name", .string(rule.name)),
                    ("description", .string(rule.description)), ("children", .array(rule.children.map { self.child($0) })),
                ]))])
            }
        }

        private func examples(_ examples: GherkinExamples) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("id", id(examples.id).json), ("location", location(examples.location)), ("tags", tags(examples.tags)),
                ("keyword", .string(examples.keyword)), ("name", .string(examples.name)),
                ("description", .string(examples.description)),
            ]
            if let header = examples.tableHeader { members.append(("tableHeader", row(header.id, header.location, header.cells))) }
            members.append(("tableBody", .array(examples.tableBody.map { row($0.id, $0.location, $0.cells) })))
            return .object(members)
        }

        private func row(_ rowID: Int, _ place: GherkinLocation, _ cells: [String]) -> JSONValue {
            let columns = info.cellColumns(line: place.line)
            return .object([
                ("id", id(rowID).json), ("location", location(place)),
                ("cells", .array(cells.enumerated().map { index, value in
                    let column = index < columns.count ? columns[index] : place.column
                    return .object([("location", location(GherkinLocation(line: place.line, column: column))), ("value", .string(value))])
                })),
            ])
        }

        private func step(_ step: GherkinStep) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("id", id(step.id).json), ("location", location(step.location)),
                ("keyword", .string(step.keyword)), ("keywordType", .string(step.keywordType.rawValue)),
                ("text", .string(step.text)),
            ]
            if let table = step.dataTable {
                // The parser numbers a table's rows just before its step.
                let lines = info.tableRowLines(from: table.location.line, count: table.rows.count)
                let firstRowID = step.id - table.rows.count
                let rows = table.rows.enumerated().map { index, cells in
                    let line = lines[index]
                    let column = info.cellColumns(line: line).first.map { $0 - 2 } ?? table.location.column
                    return row(firstRowID + index, GherkinLocation(line: line, column: index == 0 ? table.location.column : max(1, column)), cells)
                }
                members.append(("dataTable", .object([("location", location(table.location)), ("rows", .array(rows))])))
            }
            if let doc = step.docString {
                var docMembers: [(String, JSONValue)] = [("location", location(doc.location))]
                if let mediaType = doc.mediaType { docMembers.append(("mediaType", .string(mediaType))) }
                docMembers += [("content", .string(doc.content)), ("delimiter", .string(doc.delimiter))]
                members.append(("docString", .object(docMembers)))
            }
            return .object(members)
        }
    }
}

extension String {
    var json: JSONValue { .string(self) }
}
