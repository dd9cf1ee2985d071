/// The photo catalog.
enum LibraryModule {}
