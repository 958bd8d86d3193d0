#!/usr/bin/env node
// Runs the TypeScript CLI straight from src/, so the CLI and the page share one core.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
