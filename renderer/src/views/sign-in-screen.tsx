import { useShell } from '../screens/shell-context';
import { useNavigation } from '../screens/context';
import { Imperative } from '../ui/kit/imperative';
import { signInView } from './sign-in';

export default function SignInScreen() {
  const shell = useShell();
  const nav = useNavigation();
  return (
    <Imperative
      create={(host) =>
        void host.append(
          signInView((session) => shell.signedIn(session), { openSettings: () => nav.openSettings(), ...shell.signIn }),
        )
      }
    />
  );
}
