// URL-mode questions in Chromium, from a Parley server process over Streamable HTTP, on both eras.
import { describeUrlFlows } from './helpers/url-flows.js';

describeUrlFlows('http');
