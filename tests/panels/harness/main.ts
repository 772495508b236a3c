/**
 * Mounts the backlog and the side panels alone, for the component and performance tests: the page
 * under test is served and its API answered by Playwright (tests/panels/perf), no app server.
 */
import { mount } from 'svelte';
import Harness from './Harness.svelte';

const target = document.getElementById('app');
if (target) {
	// The test measures "opens" from here: the page's code is loaded, the backlog is asked to show.
	Reflect.set(window, '__mountAt', performance.now());
	mount(Harness, { target });
}
