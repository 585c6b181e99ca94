import './styles.css';
import { App } from './app';

/**
 * Entry point of the renderer (the desktop window, and the web app the sync
 * server serves at /app/).
 */
void new App(document.getElementById('app')!).start();
