import { createApp } from './server.js';

// One client over stdin and stdout: a desktop or IDE host starts this process (see README.md).
// Anything you print goes to stderr: stdout carries the protocol.
createApp().stdio();
