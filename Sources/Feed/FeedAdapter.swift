import Content
import Diagnostics

/// Asks one section controller per kind to present each object, as IGListKit's adapter does.
///
/// Controllers are looked up in a registry keyed by ``ObjectKind``: registering a controller
/// is all it takes to add a kind.
public struct FeedAdapter: Sendable {
    private var controllers: [ObjectKind: any SectionController] = [:]
    /// What controllers may know about the site.
    public let context: FeedContext

    /// Creates an adapter with the given controllers.
    public init(context: FeedContext, controllers: [any SectionController]) {
        self.context = context
        for controller in controllers { register(controller) }
    }

    /// Creates an adapter with marsgen's built-in controllers: journal, message, weather.
    public static func standard(context: FeedContext) -> FeedAdapter {
        FeedAdapter(context: context, controllers: [
            JournalSectionController(), MessageSectionController(), WeatherSectionController(),
        ])
    }

    /// Registers `controller` for its kind, replacing any earlier one.
    public mutating func register(_ controller: any SectionController) {
        controllers[controller.kind] = controller
    }

    /// The controller for `object`'s kind.
    public func controller(for object: any FeedObject) -> (any SectionController)? {
        controllers[object.kind]
    }

    /// The templates every registered controller uses.
    public var cellTemplates: [String] {
        controllers.keys.sorted().flatMap { controllers[$0]?.cellTemplates ?? [] }
    }

    /// The section for `object`.
    ///
    /// - Parameter isOwnPage: Whether it is shown on the object's own page (see
    ///   ``FeedContext/isOwnPage``).
    /// - Throws: A ``Diagnostic`` when no controller is registered for the object's kind.
    public func section(for object: any FeedObject, isOwnPage: Bool = false) throws(Diagnostic) -> FeedSection {
        var context = context
        context.isOwnPage = isOwnPage
        guard let section = controller(for: object)?.section(for: object, context: context) else {
            throw Diagnostic.error("no section controller for objects of kind '\(object.kind)'",
                                   at: SourceLocation(path: object.sourcePath))
        }
        return section
    }
}
