import { printBundleFigures } from './bundle';

// Each section prints figures; budgets live in the issues and are compared by a person, not asserted.
printBundleFigures();
