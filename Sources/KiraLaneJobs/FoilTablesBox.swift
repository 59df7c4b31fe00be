import KiraShader

/// A foil's tables, held by reference so that recomputing them in place copies nothing.
package final class FoilTablesBox<T: FoilTables> {
    package var tables: T
    package init(_ tables: T) { self.tables = tables }
}
