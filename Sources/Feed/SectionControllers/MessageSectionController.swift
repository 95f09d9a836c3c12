import Content

/// A message: one cell, the sender's name in capitals, then the text.
public struct MessageSectionController: SectionController {
    public var kind: ObjectKind { .message }
    public var cellTemplates: [String] { ["cell-message"] }

    /// Creates the controller.
    public init() {}

    public func section(for object: any FeedObject, context: FeedContext) -> FeedSection? {
        guard let message = object as? Message else { return nil }
        var cell = context.timeContext(for: message)
        cell["sender"] = message.author.name.uppercased()
        cell["senderID"] = message.author.id
        cell["senderURL"] = context.links.crew(message.author.id)
        cell["channel"] = message.channel
        cell["body"] = message.bodyHTML
        return FeedSection(kind: kind, diffIdentifier: message.diffIdentifier, contentHash: message.contentHash,
                           anchor: context.links.anchor(for: message), layout: .stacked,
                           cells: [RenderRequest(template: "cell-message", context: cell)])
    }
}
