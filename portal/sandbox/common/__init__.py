"""What every emulated API and the app build on: the config file, the answer envelope and
errors, the answer dialect, JSON bodies, paths, and the snapshot a restart keeps."""
