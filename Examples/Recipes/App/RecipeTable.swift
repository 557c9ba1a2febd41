public import ExampleSupport
public import OpenCoreData

/// The recipe list's delegate: it collects changes like any ``TableStandIn`` and answers the
/// controller's question about section index titles with ``RecipeIndexTitle``.
public final class RecipeTable: TableStandIn {
    override public func controller(_ controller: AnyFetchedResultsController,
                                    sectionIndexTitleForSectionName sectionName: String) -> String? {
        RecipeIndexTitle.title(forType: sectionName)
    }
}
