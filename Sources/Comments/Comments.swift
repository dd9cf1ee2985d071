/// Comment storage.
enum CommentsModule {}
