// URL-mode questions in Chromium, from a Parley server spawned over stdio, on both eras.
import { describeUrlFlows } from './helpers/url-flows.js';

describeUrlFlows('stdio');
