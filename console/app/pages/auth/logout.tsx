import { useEffect } from 'preact/hooks';
import { navigate } from '../../router.js';
import { logout } from '../../session.js';

export function Logout(): null {
  useEffect(() => {
    logout();
    navigate('/', { replace: true });
  }, []);
  return null;
}
