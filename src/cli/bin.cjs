#!/usr/bin/env node
// The `wcs` admin CLI. Registers tsx so the TypeScript sources run as they are.
'use strict';
require('tsx/cjs');
require('./wcs.ts');
