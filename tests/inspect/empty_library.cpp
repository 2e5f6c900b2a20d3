// A shared library that registers nothing with any runtime: loading it is an error
// ("registered nothing with the schemac runtime").
extern "C" int inspect_empty_library_marker() { return 0; }
