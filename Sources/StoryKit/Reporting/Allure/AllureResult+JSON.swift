/// Allure's result files as JSON values, written by ``JSONValue``'s writer:
/// fields in the order the models declare them (the order Allure's own
/// model names them), an optional field left out when unset.
extension AllureResult {
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("uuid", .string(uuid)), ("historyId", .string(historyId)), ("testCaseId", .string(testCaseId)),
            ("fullName", .string(fullName)), ("name", .string(name)), ("status", .string(status.rawValue)),
        ]
        if let statusDetails { members.append(("statusDetails", statusDetails.json)) }
        members += [
            ("stage", .string(stage)), ("start", .int(start)), ("stop", .int(stop)), ("steps", .array(steps.map(\.json))),
            ("attachments", .array(attachments.map(\.json))), ("parameters", .array(parameters.map(\.json))),
            ("labels", .array(labels.map(\.json))), ("titlePath", .array(titlePath.map(JSONValue.string))),
        ]
        return .object(members)
    }
}

extension AllureStep {
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("status", .string(status.rawValue))]
        if let statusDetails { members.append(("statusDetails", statusDetails.json)) }
        members += [("stage", .string(stage)), ("start", .int(start)), ("stop", .int(stop)), ("attachments", .array(attachments.map(\.json)))]
        return .object(members)
    }
}

extension AllureStatusDetails {
    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let message { members.append(("message", .string(message))) }
        if let trace { members.append(("trace", .string(trace))) }
        if let flaky { members.append(("flaky", .bool(flaky))) }
        return .object(members)
    }
}

extension AllureAttachment {
    var json: JSONValue { .object([("name", .string(name)), ("source", .string(source)), ("type", .string(type))]) }
}

extension AllureParameter {
    var json: JSONValue { .object([("name", .string(name)), ("value", .string(value))]) }
}

extension AllureLabel {
    var json: JSONValue { .object([("name", .string(name)), ("value", .string(value))]) }
}
