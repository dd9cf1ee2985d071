/// libvips wrapper, pyramid geometry and tile rendering.
enum ImagingModule {}
