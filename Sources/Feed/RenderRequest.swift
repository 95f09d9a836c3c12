/// The values a template sees: strings, numbers, booleans, lists and nested contexts.
public typealias TemplateContext = [String: Any]

/// A template to render and the values to render it with.
///
/// Feed never renders anything itself: it says *what* to render, and the Rendering module
/// turns requests into HTML. So controllers stay testable without a template engine.
public struct RenderRequest {
    /// The template's name, without extension (`cell-message`).
    public var template: String
    /// The values the template sees.
    public var context: TemplateContext

    /// Creates a request.
    public init(template: String, context: TemplateContext) {
        self.template = template
        self.context = context
    }
}
